import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { DnsListData, DnsListParams } from '@panel247/contract/dns';
import { DNS_API } from '@panel247/contract/routes';
import { apiGetQuery } from '../../../lib/api-query';

/** One page of the list call; `type` '' for every type. */
export type DnsListQuery = Required<Pick<DnsListParams, 'page' | 'type' | 'filter'>>;

/** Every DNS query of a service starts with this key: mutations invalidate it as a whole. */
export const dnsQueryKey = (serviceId: number) => ['dns', serviceId] as const;
export const dnsListQueryKey = (serviceId: number, query: DnsListQuery) =>
  [...dnsQueryKey(serviceId), 'list', query] as const;

/** The page the view opens on: the first, of every type, unfiltered. */
export const FIRST_DNS_PAGE: DnsListQuery = { page: 1, type: '', filter: '' };

/**
 * One page of the zone, paged and filtered on the server (fast for 10,000-record zones): its key
 * and call, which the view's hook, the boot's prefetch and the server's first render share.
 */
export function dnsListQuery(serviceId: number, query: DnsListQuery) {
  return apiGetQuery<DnsListData>(dnsListQueryKey(serviceId, query), {
    path: DNS_API.list(serviceId),
    params: { page: query.page, pageSize: LIST_PAGE_SIZE, type: query.type, filter: query.filter },
  });
}
