import type { Mailbox, MailboxListData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every mail query of a service starts with this key. */
export const mailQueryKey = (serviceId: number) => ['mail', serviceId] as const;
export const mailboxesQueryKey = (serviceId: number) => [...mailQueryKey(serviceId), 'mailboxes'] as const;

export async function listMailboxes(serviceId: number, signal?: AbortSignal): Promise<Mailbox[]> {
  return (await api<MailboxListData>(MAIL_API.mailboxes(serviceId), undefined, { method: 'GET', signal })).correo;
}

export function useMailboxes(serviceId: number, enabled = true) {
  return useQuery({
    queryKey: mailboxesQueryKey(serviceId),
    queryFn: ({ signal }) => listMailboxes(serviceId, signal),
    enabled,
  });
}
