import type { EmptyData } from '@panel247/contract/envelope';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useCacheMailSpam } from './get-mail-spam';

/** Returns the server's info messages (the first one is shown). */
export async function removeSpamSender(serviceId: number, senderId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(MAIL_API.spamSenderDelete(serviceId, senderId), undefined, { method: 'POST' }))
    .system.info;
}

export function useRemoveSpamSender(serviceId: number) {
  const cache = useCacheMailSpam(serviceId);
  return useMutation({
    mutationFn: (senderId: number) => removeSpamSender(serviceId, senderId),
    onSuccess: (_info, senderId) =>
      cache((data) => ({ ...data, senders: data.senders.filter((one) => one.id !== senderId) })),
  });
}
