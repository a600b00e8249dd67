import type { MailboxCreateParams, MailboxData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailPagesQueryKey } from './list-mail';

/** `name` is the local part; `quota` in MiB, left out for the plan's default. */
export type MailboxCreateInput = Omit<MailboxCreateParams, 'id'>;

export async function createMailbox(serviceId: number, input: MailboxCreateInput) {
  const { data, system } = await apiCall<MailboxData>(
    MAIL_API.mailboxCreate(serviceId),
    { name: input.name, password: input.password, quota: input.quota },
    { method: 'POST' },
  );
  return { mailbox: data.correo, info: system.info };
}

/** The pages are asked for again: the server places the new account. */
export function useCreateMailbox(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MailboxCreateInput) => createMailbox(serviceId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailPagesQueryKey(serviceId) }),
  });
}
