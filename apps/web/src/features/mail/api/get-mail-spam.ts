import type { SpamData } from '@panel247/contract/mail-spam';
import { MAIL_API } from '@panel247/contract/routes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiGetQuery } from '../../../lib/api-query';
import { mailQueryKey } from './list-mail';

export const mailSpamQueryKey = (serviceId: number) => [...mailQueryKey(serviceId), 'spam'] as const;

/**
 * Each mailbox's filtering, the allow and block lists, and what was filtered lately: the spam
 * view's first call, which its hook, the boot's prefetch and the server's first render share.
 */
export function mailSpamQuery(serviceId: number) {
  return apiGetQuery<SpamData>(mailSpamQueryKey(serviceId), { path: MAIL_API.spam(serviceId) });
}

export function useMailSpam(serviceId: number) {
  return useQuery(mailSpamQuery(serviceId));
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
