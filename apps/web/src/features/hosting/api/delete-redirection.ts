import type { EmptyData } from '@panel247/contract/envelope';
import type { Redirection } from '@panel247/contract/hosting';
import { REDIRECTION_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { redirectionsQueryKey } from './list-redirections';

/** Returns the server's info messages (the first one is shown). */
export async function deleteRedirection(serviceId: number, redirectionId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(REDIRECTION_API.remove(serviceId, redirectionId), undefined, { method: 'POST' }))
    .system.info;
}

/** The redirection leaves the cached list. */
export function useDeleteRedirection(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (redirectionId: number) => deleteRedirection(serviceId, redirectionId),
    onSuccess: (_info, redirectionId) =>
      queryClient.setQueryData<Redirection[]>(redirectionsQueryKey(serviceId), (list) =>
        list?.filter((item) => item.id !== redirectionId),
      ),
  });
}
