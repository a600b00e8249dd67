import type { EmptyData } from '@panel247/contract/envelope';
import { API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { PASSKEYS_KEY } from './passkey-list';

export function renamePasskey(input: { id: number; name: string }) {
  return apiCall<EmptyData>(API.passkeyRename(input.id), { name: input.name }, { method: 'POST' });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renamePasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
}
