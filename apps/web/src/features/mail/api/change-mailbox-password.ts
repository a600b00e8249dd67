import type { MailboxData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailPagesQueryKey } from './list-mail';

export async function changeMailboxPassword(serviceId: number, accountId: number, password: string) {
  const { data, system } = await apiCall<Partial<MailboxData>>(
    MAIL_API.mailboxPassword(serviceId, accountId),
    { password },
    { method: 'POST' },
  );
  return { mailbox: data?.correo ?? null, info: system.info };
}

/** The pages are asked for again, with the account as the server now has it. */
export function useChangeMailboxPassword(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, password }: { accountId: number; password: string }) =>
      changeMailboxPassword(serviceId, accountId, password),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailPagesQueryKey(serviceId) }),
  });
}
