import type { ActivityListData, ActivityListParams } from '@panel247/contract/activity';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { ACTIVITY_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../../../lib/api-query';

/** The filters the page sets: a resource (the item's page) or none (the account's). */
export type ActivityFilters = Required<Pick<ActivityListParams, 'user' | 'area' | 'from' | 'to'>> & {
  resource?: number;
};

export const activityQueryKey = ['activity'] as const;

/** The filters a log opens with: none, but the item's own on an item's page. */
export function openingFilters(resource?: number): ActivityFilters {
  return { user: '', area: '', from: '', to: '', ...(resource === undefined ? {} : { resource }) };
}

/**
 * One page of the log, newest first. The first page with the opening filters is the view's first
 * call, which its hook, the boot's prefetch and the server's first render share.
 */
export function activityPageQuery(filters: ActivityFilters, page: number) {
  return apiGetQuery<ActivityListData>([...activityQueryKey, filters, page], {
    path: ACTIVITY_API.list,
    params: { ...filters, page, pageSize: LIST_PAGE_SIZE },
  });
}

/** One page of the log; the previous page stays shown while the next loads. */
export function useActivity(filters: ActivityFilters, page: number) {
  return useQuery({ ...activityPageQuery(filters, page), placeholderData: keepPreviousData });
}
