import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { DnsListData, DnsListParams } from '@panel247/contract/dns';
import { DNS_API } from '@panel247/contract/routes';
import { api } from '../../../lib/api-client';

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

/** The page the view opens on: the first, of every type, unfiltered. */
export const FIRST_DNS_PAGE: DnsListQuery = { page: 1, type: '', filter: '' };

/** One page's key and call: the view's hook and the boot's prefetch (app/route-data.ts) share them. */
export function dnsListQuery(serviceId: number, query: DnsListQuery) {
  return {
    queryKey: dnsListQueryKey(serviceId, query),
    queryFn: ({ signal }: { signal?: AbortSignal }) => listDnsRecords(serviceId, query, signal),
  };
}
