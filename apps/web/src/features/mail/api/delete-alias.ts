import type { EmptyData } from '@panel247/contract/envelope';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailPagesQueryKey } from './list-mail';

/** Returns the server's info messages (the first one is shown). */
export async function deleteAlias(serviceId: number, aliasId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(MAIL_API.aliasDelete(serviceId, aliasId), undefined, { method: 'POST' })).system
    .info;
}

/** The pages are asked for again, without the alias. */
export function useDeleteAlias(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (aliasId: number) => deleteAlias(serviceId, aliasId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailPagesQueryKey(serviceId) }),
  });
}
