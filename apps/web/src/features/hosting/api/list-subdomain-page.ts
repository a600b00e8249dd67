import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { SubdomainListData } from '@panel247/contract/hosting';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { SUBDOMAIN_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { hostingQueryKey } from './get-hosting-service';

/** Every page of a service's sites: the changes invalidate them as a whole. */
export const subdomainPagesQueryKey = (serviceId: number) =>
  [...hostingQueryKey(serviceId), 'subdomain-pages'] as const;

/** One page of the sites, the main domain first, paged and filtered (host, folder) on the server. */
export function listSubdomainPage(
  serviceId: number,
  query: ListPageQuery,
  signal?: AbortSignal,
): Promise<SubdomainListData> {
  return api<SubdomainListData>(
    SUBDOMAIN_API.list(serviceId),
    { page: query.page, pageSize: LIST_PAGE_SIZE, filter: query.filter },
    { method: 'GET', signal },
  );
}

export function useSubdomainPage(serviceId: number, query: ListPageQuery) {
  return useQuery({
    queryKey: [...subdomainPagesQueryKey(serviceId), query],
    queryFn: ({ signal }) => listSubdomainPage(serviceId, query, signal),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
  });
}
