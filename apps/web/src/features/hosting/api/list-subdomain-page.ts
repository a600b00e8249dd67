import type { SubdomainListData } from '@panel247/contract/hosting';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { SUBDOMAIN_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { listPageQuery } from '../../../lib/api-query';
import { hostingQueryKey } from './get-hosting-service';

/** Every page of a service's sites: the changes invalidate them as a whole. */
export const subdomainPagesQueryKey = (serviceId: number) =>
  [...hostingQueryKey(serviceId), 'subdomain-pages'] as const;

/**
 * One page of the sites, the main domain first, paged and filtered (host, folder) on the server:
 * its key and call, which the view's hook, the boot's prefetch and the server's first render share.
 */
export function subdomainPageQuery(serviceId: number, query: ListPageQuery) {
  return listPageQuery<SubdomainListData>(subdomainPagesQueryKey(serviceId), SUBDOMAIN_API.list(serviceId), query);
}

export function useSubdomainPage(serviceId: number, query: ListPageQuery) {
  return useQuery({
    ...subdomainPageQuery(serviceId, query),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
  });
}
