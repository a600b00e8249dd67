import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PENDING_WORK_REFRESH_MS } from '../../../lib/use-work-refresh';
import { type MailPageQuery, mailPageQuery } from './list-mail';

export function useMailPage(serviceId: number, query: MailPageQuery) {
  return useQuery({
    ...mailPageQuery(serviceId, query),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.applying ? PENDING_WORK_REFRESH_MS : false),
  });
}
