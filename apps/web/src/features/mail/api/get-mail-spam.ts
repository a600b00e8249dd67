import type { SpamData } from '@panel247/contract/mail-spam';
import { MAIL_API } from '@panel247/contract/routes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../../lib/api-client';
import { mailQueryKey } from './list-mail';

export const mailSpamQueryKey = (serviceId: number) => [...mailQueryKey(serviceId), 'spam'] as const;

/** Each mailbox's filtering, the allow and block lists, and what was filtered lately. */
export function getMailSpam(serviceId: number, signal?: AbortSignal): Promise<SpamData> {
  return api<SpamData>(MAIL_API.spam(serviceId), undefined, { method: 'GET', signal });
}

export function useMailSpam(serviceId: number) {
  return useQuery({
    queryKey: mailSpamQueryKey(serviceId),
    queryFn: ({ signal }) => getMailSpam(serviceId, signal),
  });
}

/**
 * Puts what a change answered into the cached page, which then needs no new read (the messages
 * filtered so far do not change with a setting).
 */
export function useCacheMailSpam(serviceId: number) {
  const queryClient = useQueryClient();
  return useCallback(
    (change: (data: SpamData) => SpamData) =>
      queryClient.setQueryData<SpamData>(mailSpamQueryKey(serviceId), (data) => (data ? change(data) : data)),
    [queryClient, serviceId],
  );
}
