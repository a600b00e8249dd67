import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { RedirectionListData } from '@panel247/contract/hosting';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { REDIRECTION_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { hostingQueryKey } from './get-hosting-service';

/** Every page of a service's redirections: the changes invalidate them as a whole. */
export const redirectionPagesQueryKey = (serviceId: number) =>
  [...hostingQueryKey(serviceId), 'redirection-pages'] as const;

/** One page of the redirections by origin, paged and filtered (origin, destination, type) on the server. */
export function listRedirectionPage(
  serviceId: number,
  query: ListPageQuery,
  signal?: AbortSignal,
): Promise<RedirectionListData> {
  return api<RedirectionListData>(
    REDIRECTION_API.list(serviceId),
    { page: query.page, pageSize: LIST_PAGE_SIZE, filter: query.filter },
    { method: 'GET', signal },
  );
}

export function useRedirectionPage(serviceId: number, query: ListPageQuery) {
  return useQuery({
    queryKey: [...redirectionPagesQueryKey(serviceId), query],
    queryFn: ({ signal }) => listRedirectionPage(serviceId, query, signal),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
  });
}
