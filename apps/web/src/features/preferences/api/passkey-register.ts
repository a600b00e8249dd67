import type { Passkey, PasskeyOptionsData } from '@panel247/contract/passkey';
import { API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiCall } from '../../../lib/api-client';
import { createPasskeyCredential } from '../../../lib/passkey-browser';
import { PASSKEYS_KEY } from './passkey-list';
import { reauthFactor } from './passkey-reauth';

export interface RegisterPasskeyInput {
  name: string;
  password: string;
  /** With TOTP on: a current code (or a recovery code). */
  code?: string;
  /** Confirm with one of the user's passkeys instead (the browser asks for it first). */
  withPasskey?: boolean;
}

/**
 * Adds a passkey: the password and, with a second factor, a current one open the ceremony
 * (options from the server), the browser creates the credential, the server checks and keeps it
 * under the name.
 */
export async function registerPasskey(input: RegisterPasskeyInput) {
  const factor = await reauthFactor(input);
  const { options } = await api<PasskeyOptionsData>(
    API.passkeyRegisterOptions,
    { password: input.password, ...factor },
    { method: 'POST' },
  );
  const credential = await createPasskeyCredential(options);
  return apiCall<Passkey>(API.passkeyRegister, { name: input.name, credential }, { method: 'POST' });
}

export function useRegisterPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerPasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
}
