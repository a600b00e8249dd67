import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { DnsListData, DnsListParams } from '@panel247/contract/dns';
import { DNS_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PENDING_WORK_REFRESH_MS } from '../../../lib/use-work-refresh';

/** One page of the list call; `type` '' for every type. */
export type DnsListQuery = Required<Pick<DnsListParams, 'page' | 'type' | 'filter'>>;

/** Every DNS query of a service starts with this key: mutations invalidate it as a whole. */
export const dnsQueryKey = (serviceId: number) => ['dns', serviceId] as const;
export const dnsListQueryKey = (serviceId: number, query: DnsListQuery) =>
  [...dnsQueryKey(serviceId), 'list', query] as const;

/** One page of the zone, paged and filtered on the server (fast for 10,000-record zones). */
export function listDnsRecords(serviceId: number, query: DnsListQuery, signal?: AbortSignal): Promise<DnsListData> {
  return api<DnsListData>(
    DNS_API.list(serviceId),
    { page: query.page, pageSize: LIST_PAGE_SIZE, type: query.type, filter: query.filter },
    { method: 'GET', signal },
  );
}

export function useDnsRecords(serviceId: number, query: DnsListQuery) {
  return useQuery({
    queryKey: dnsListQueryKey(serviceId, query),
    queryFn: ({ signal }) => listDnsRecords(serviceId, query, signal),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
    // While the zone's changes are on their way to the DNS server, the realtime channel says when
    // they land (or fail); the list also looks again now and then.
    refetchInterval: (query) => (query.state.data?.publishing ? PENDING_WORK_REFRESH_MS : false),
  });
}
