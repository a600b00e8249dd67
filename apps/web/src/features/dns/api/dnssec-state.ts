import type { DnssecZoneData } from '@panel247/contract/dnssec';
import { DNS_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

/** How often the card asks again while the zone is being unsigned. */
const UNSIGNING_POLL_MS = 2000;

/** Under the zone's key: a change of the zone refreshes its DNSSEC too. */
export const dnssecStateKey = (serviceId: number) => [...dnsQueryKey(serviceId), 'dnssec'] as const;

/** The zone's DNSSEC: state, DS, rights, and the unsigning under way (followed until it ends). */
export function useDnssecState(serviceId: number) {
  return useQuery({
    queryKey: dnssecStateKey(serviceId),
    queryFn: ({ signal }) => api<DnssecZoneData>(DNS_API.dnssec(serviceId), undefined, { method: 'GET', signal }),
    refetchInterval: (query) => (query.state.data?.state === 'unsigning' ? UNSIGNING_POLL_MS : false),
  });
}
