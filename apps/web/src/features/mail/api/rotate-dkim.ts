import type { MailAuthData } from '@panel247/contract/mail-auth';
import { MAIL_AUTH_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailAuthQueryKey } from './get-mail-auth';

export async function rotateDkim(serviceId: number) {
  const { data, system } = await apiCall<MailAuthData>(MAIL_AUTH_API.rotate(serviceId), {}, { method: 'POST' });
  return { data, info: system.info };
}

/** The answer is the card's new state (the rotation's first step). */
export function useRotateDkim(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateDkim(serviceId),
    onSuccess: ({ data }) => queryClient.setQueryData(mailAuthQueryKey(serviceId), data),
  });
}
