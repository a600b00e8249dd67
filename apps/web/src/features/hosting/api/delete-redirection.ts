import type { EmptyData } from '@panel247/contract/envelope';
import { REDIRECTION_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { redirectionPagesQueryKey } from './list-redirection-page';

/** Returns the server's info messages (the first one is shown). */
export async function deleteRedirection(serviceId: number, redirectionId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(REDIRECTION_API.remove(serviceId, redirectionId), undefined, { method: 'POST' }))
    .system.info;
}

/** The pages are asked for again, without the redirection. */
export function useDeleteRedirection(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (redirectionId: number) => deleteRedirection(serviceId, redirectionId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redirectionPagesQueryKey(serviceId) }),
  });
}
