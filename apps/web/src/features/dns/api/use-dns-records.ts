import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PENDING_WORK_REFRESH_MS } from '../../../lib/use-work-refresh';
import { type DnsListQuery, dnsListQuery } from './list-dns-records';

export function useDnsRecords(serviceId: number, query: DnsListQuery) {
  return useQuery({
    ...dnsListQuery(serviceId, query),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
    // While the zone's changes are on their way to the DNS server, the realtime channel says when
    // they land (or fail); the list also looks again now and then.
    refetchInterval: (query) => (query.state.data?.publishing ? PENDING_WORK_REFRESH_MS : false),
  });
}
