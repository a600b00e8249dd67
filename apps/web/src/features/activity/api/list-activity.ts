import type { ActivityListData, ActivityListParams } from '@panel247/contract/activity';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { ACTIVITY_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The filters the page sets: a resource (the item's page) or none (the account's). */
export type ActivityFilters = Required<Pick<ActivityListParams, 'user' | 'area' | 'from' | 'to'>> & {
  resource?: number;
};

export const activityQueryKey = ['activity'] as const;

/** One page of the log, newest first; the previous page stays shown while the next loads. */
export function useActivity(filters: ActivityFilters, page: number) {
  return useQuery({
    queryKey: [...activityQueryKey, filters, page],
    queryFn: ({ signal }) =>
      api<ActivityListData>(
        ACTIVITY_API.list,
        { ...filters, page, pageSize: LIST_PAGE_SIZE },
        { method: 'GET', signal },
      ),
    placeholderData: keepPreviousData,
  });
}
