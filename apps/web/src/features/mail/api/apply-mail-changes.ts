import type { MailApplyData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { mailPagesQueryKey } from './list-mail';

/** Applies the service's pending mailbox changes now ("try again"); answers the server's message. */
export async function applyMailChanges(serviceId: number) {
  return (await apiCall<MailApplyData>(MAIL_API.apply(serviceId), undefined, { method: 'POST' })).system.info;
}

export function useApplyMailChanges(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => applyMailChanges(serviceId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mailPagesQueryKey(serviceId) }),
  });
}
