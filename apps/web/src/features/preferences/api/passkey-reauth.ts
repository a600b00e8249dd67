import type { PasskeyOptionsData } from '@panel247/contract/passkey';
import { API } from '@panel247/contract/routes';
import { api } from '../../../lib/api-client';
import { getPasskeyAssertion } from '../../../lib/passkey-browser';

/** A passkey's signature over the server's re-authentication challenge, for a security change. */
export async function passkeyReauthentication(): Promise<string> {
  const { options } = await api<PasskeyOptionsData>(API.passkeyReauthOptions, undefined, { method: 'POST' });
  return getPasskeyAssertion(options);
}
