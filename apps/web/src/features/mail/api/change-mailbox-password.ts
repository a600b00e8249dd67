import type { Mailbox, MailboxData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailboxesQueryKey } from './list-mailboxes';

export async function changeMailboxPassword(serviceId: number, accountId: number, password: string) {
  const { data, system } = await apiCall<Partial<MailboxData>>(
    MAIL_API.mailboxPassword(serviceId, accountId),
    { password },
    { method: 'POST' },
  );
  return { mailbox: data?.correo ?? null, info: system.info };
}

/** The account's row is replaced by the one the server returns. */
export function useChangeMailboxPassword(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, password }: { accountId: number; password: string }) =>
      changeMailboxPassword(serviceId, accountId, password),
    onSuccess: ({ mailbox }) => {
      if (!mailbox) return;
      queryClient.setQueryData<Mailbox[]>(mailboxesQueryKey(serviceId), (list) =>
        list?.map((item) => (item.id === mailbox.id ? mailbox : item)),
      );
    },
  });
}
