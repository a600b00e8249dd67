import type { PasskeyOptionsData } from '@panel247/contract/passkey';
import { API } from '@panel247/contract/routes';
import { api } from '../../../lib/api-client';
import { getPasskeyAssertion } from '../../../lib/passkey-browser';

/** A passkey's signature over the server's re-authentication challenge, for a security change. */
export async function passkeyReauthentication(): Promise<string> {
  const { options } = await api<PasskeyOptionsData>(API.passkeyReauthOptions, undefined, { method: 'POST' });
  return getPasskeyAssertion(options);
}

/**
 * The current factor a security change sends: a passkey's signature when the user chose one (the
 * browser asks for it), else the code typed, if any.
 */
export async function reauthFactor(input: {
  code?: string | undefined;
  withPasskey?: boolean | undefined;
}): Promise<{ credential: string } | { code: string } | Record<string, never>> {
  if (input.withPasskey) return { credential: await passkeyReauthentication() };
  return input.code ? { code: input.code } : {};
}
