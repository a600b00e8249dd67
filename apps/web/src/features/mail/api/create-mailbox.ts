import type { Mailbox, MailboxCreateParams, MailboxData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailboxesQueryKey } from './list-mailboxes';

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

/** The new account joins the cached list (no reload). */
export function useCreateMailbox(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MailboxCreateInput) => createMailbox(serviceId, input),
    onSuccess: ({ mailbox }) =>
      queryClient.setQueryData<Mailbox[]>(mailboxesQueryKey(serviceId), (list) => [
        ...(list ?? []).filter((item) => item.id !== mailbox.id),
        mailbox,
      ]),
  });
}
