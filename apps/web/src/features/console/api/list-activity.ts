import type { consoleActivityDataSchema } from '@panel247/contract/console';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONSOLE_API, consoleApi, consoleQueryKey, consoleRetry } from './console-api';

export type ActivityData = z.infer<typeof consoleActivityDataSchema>;
export type ConsoleActivityEntry = ActivityData['entries'][number];

/** The entries of one page: the server's own size (console-oversight's ACTIVITY_PAGE). */
export const ACTIVITY_PAGE_SIZE = 50;

export function listActivity(query: ListPageQuery, signal?: AbortSignal): Promise<ActivityData> {
  return consoleApi<ActivityData>(CONSOLE_API.activity, { ...query }, { method: 'GET', signal });
}

/** One page of every account's activity, newest first, filtered on the server. */
export function useConsoleActivity(query: ListPageQuery) {
  return useQuery({
    queryKey: [...consoleQueryKey, 'activity', query],
    queryFn: ({ signal }) => listActivity(query, signal),
    placeholderData: keepPreviousData,
    retry: consoleRetry,
  });
}
