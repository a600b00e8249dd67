import type { SpamSenderAddParams, SpamSenderData } from '@panel247/contract/mail-spam';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useCacheMailSpam } from './get-mail-spam';

export type SpamSenderInput = Omit<SpamSenderAddParams, 'id'>;

export async function addSpamSender(serviceId: number, input: SpamSenderInput) {
  const { data, system } = await apiCall<SpamSenderData>(MAIL_API.spamSenderAdd(serviceId), input, {
    method: 'POST',
  });
  return { sender: data.sender, info: system.info };
}

/** The new sender joins the cached lists as the server keeps it (lower case, trimmed). */
export function useAddSpamSender(serviceId: number) {
  const cache = useCacheMailSpam(serviceId);
  return useMutation({
    mutationFn: (input: SpamSenderInput) => addSpamSender(serviceId, input),
    onSuccess: ({ sender }) =>
      cache((data) => ({ ...data, senders: [...data.senders.filter((one) => one.id !== sender.id), sender] })),
  });
}
