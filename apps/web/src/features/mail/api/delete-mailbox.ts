import type { EmptyData } from '@panel247/contract/envelope';
import type { Mailbox } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailboxesQueryKey } from './list-mailboxes';

/** Returns the server's info messages (the first one is shown). */
export async function deleteMailbox(serviceId: number, accountId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(MAIL_API.mailboxDelete(serviceId, accountId), undefined, { method: 'POST' })).system
    .info;
}

/** The account leaves the cached list. */
export function useDeleteMailbox(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: number) => deleteMailbox(serviceId, accountId),
    onSuccess: (_info, accountId) =>
      queryClient.setQueryData<Mailbox[]>(mailboxesQueryKey(serviceId), (list) =>
        list?.filter((item) => item.id !== accountId),
      ),
  });
}
