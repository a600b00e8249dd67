import type { MailboxSpamData, MailboxSpamSaveParams } from '@panel247/contract/mail-spam';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useCacheMailSpam } from './get-mail-spam';

/** The contract's params as the form sends them: the threshold a whole number already checked. */
export type MailboxSpamInput = Pick<MailboxSpamSaveParams, 'mode'> & { accountId: number; threshold: number };

export async function saveMailboxSpam(serviceId: number, { accountId, ...fields }: MailboxSpamInput) {
  const { data, system } = await apiCall<MailboxSpamData>(MAIL_API.mailboxSpamSave(serviceId, accountId), fields, {
    method: 'POST',
  });
  return { mailbox: data.mailbox, info: system.info };
}

/** The mailbox takes its place in the cached list as the server answers it. */
export function useSaveMailboxSpam(serviceId: number) {
  const cache = useCacheMailSpam(serviceId);
  return useMutation({
    mutationFn: (input: MailboxSpamInput) => saveMailboxSpam(serviceId, input),
    onSuccess: ({ mailbox }) =>
      cache((data) => ({
        ...data,
        mailboxes: data.mailboxes.map((one) => (one.id === mailbox.id ? mailbox : one)),
      })),
  });
}
