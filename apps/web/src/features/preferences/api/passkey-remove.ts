import type { EmptyData } from '@panel247/contract/envelope';
import type { PasskeyOptionsData } from '@panel247/contract/passkey';
import { API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiCall } from '../../../lib/api-client';
import { getPasskeyAssertion } from '../../../lib/passkey-browser';
import { PASSKEYS_KEY } from './passkey-list';

/**
 * Removes a passkey with the password and a current factor: a code, or (`withPasskey`) a
 * signature by one of the user's passkeys over the server's re-authentication challenge.
 */
export async function removePasskey(input: { id: number; password: string; code: string; withPasskey: boolean }) {
  let credential: string | undefined;
  if (input.withPasskey) {
    const { options } = await api<PasskeyOptionsData>(API.passkeyReauthOptions, undefined, { method: 'POST' });
    credential = await getPasskeyAssertion(options);
  }
  return apiCall<EmptyData>(
    API.passkeyRemove(input.id),
    { password: input.password, ...(credential ? { credential } : { code: input.code }) },
    { method: 'POST' },
  );
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
}
