import type { EmptyData } from '@panel247/contract/envelope';
import { API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { PASSKEYS_KEY } from './passkey-list';
import { passkeyReauthentication } from './passkey-reauth';

/**
 * Removes a passkey with the password and a current factor: a code, or (`withPasskey`) a
 * signature by one of the user's passkeys over the server's re-authentication challenge.
 */
export async function removePasskey(input: { id: number; password: string; code: string; withPasskey: boolean }) {
  const credential = input.withPasskey ? await passkeyReauthentication() : undefined;
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
