import { FieldErrors } from '../../errors.ts';
import type { ClientCall } from './client-call.ts';

/** Where a passkey belongs: the origin the browser reports and the relying party id it signs for. */
export interface RelyingParty {
  origin: string;
  id: string;
}

/**
 * The relying party of a request. With configured origins (`passkeyOrigins`) only those count,
 * picked by the request's host, so a Host header the operator did not list never becomes a
 * relying party; without them it is the request's own origin, as the CSRF check reads it. A
 * brand's hosts each are their own relying party: a passkey made on one works only there.
 */
export function relyingPartyOf(call: Pick<ClientCall, 'secure' | 'host'>, configured: readonly string[]): RelyingParty {
  let own: URL;
  try {
    own = new URL(`${call.secure ? 'https' : 'http'}://${call.host}`);
  } catch {
    throw FieldErrors.one('credential', 'passkey.origin_not_allowed');
  }
  if (configured.length === 0) return { origin: own.origin, id: own.hostname };
  for (const origin of configured) {
    const url = new URL(origin);
    if (url.host === own.host) return { origin: url.origin, id: url.hostname };
  }
  throw FieldErrors.one('credential', 'passkey.origin_not_allowed');
}
