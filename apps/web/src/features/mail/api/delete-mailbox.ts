import type { EmptyData } from '@panel247/contract/envelope';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailPagesQueryKey } from './list-mail';

/** Returns the server's info messages (the first one is shown). */
export async function deleteMailbox(serviceId: number, accountId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(MAIL_API.mailboxDelete(serviceId, accountId), undefined, { method: 'POST' })).system
    .info;
}

/** The pages are asked for again, without the account. */
export function useDeleteMailbox(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: number) => deleteMailbox(serviceId, accountId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailPagesQueryKey(serviceId) }),
  });
}
