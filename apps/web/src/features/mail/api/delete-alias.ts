import type { EmptyData } from '@panel247/contract/envelope';
import type { Alias } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { aliasesQueryKey } from './list-aliases';

/** Returns the server's info messages (the first one is shown). */
export async function deleteAlias(serviceId: number, aliasId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(MAIL_API.aliasDelete(serviceId, aliasId), undefined, { method: 'POST' })).system
    .info;
}

/** The alias leaves the cached list. */
export function useDeleteAlias(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (aliasId: number) => deleteAlias(serviceId, aliasId),
    onSuccess: (_info, aliasId) =>
      queryClient.setQueryData<Alias[]>(aliasesQueryKey(serviceId), (list) =>
        list?.filter((item) => item.id !== aliasId),
      ),
  });
}
