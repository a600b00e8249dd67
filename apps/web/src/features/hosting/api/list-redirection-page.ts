import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { RedirectionListData } from '@panel247/contract/hosting';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { REDIRECTION_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../../../lib/api-query';
import { hostingQueryKey } from './get-hosting-service';

/** Every page of a service's redirections: the changes invalidate them as a whole. */
export const redirectionPagesQueryKey = (serviceId: number) =>
  [...hostingQueryKey(serviceId), 'redirection-pages'] as const;

/** The page the overview's redirection card opens on: the first, unfiltered. */
export const FIRST_REDIRECTION_PAGE: ListPageQuery = { page: 1, filter: '' };

/**
 * One page of the redirections by origin, paged and filtered (origin, destination, type) on the
 * server: its key and call, which the card's hook, the boot's prefetch and the server's first
 * render share.
 */
export function redirectionPageQuery(serviceId: number, query: ListPageQuery) {
  return apiGetQuery<RedirectionListData>([...redirectionPagesQueryKey(serviceId), query], {
    path: REDIRECTION_API.list(serviceId),
    params: { page: query.page, pageSize: LIST_PAGE_SIZE, filter: query.filter },
  });
}

export function useRedirectionPage(serviceId: number, query: ListPageQuery) {
  return useQuery({
    ...redirectionPageQuery(serviceId, query),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
  });
}
