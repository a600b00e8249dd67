import type { DnsListData } from '@panel247/contract/dns';
import { isOwnerName, toAsciiName } from '@panel247/contract/dns-rules';
import { DNS_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

/** An RRset: a name relative to the zone (ASCII, '' for the apex) and a type. */
export interface RRsetOwner {
  zona: string;
  type: string;
}

/** The RRset a record as typed belongs to, or undefined while its name is no valid owner name. */
export function rrsetOwnerOf(zona: string, type: string): RRsetOwner | undefined {
  const typed = zona.trim().toLowerCase().replace(/\.$/, '');
  const ascii = toAsciiName(typed === '@' ? '' : typed);
  return ascii !== undefined && isOwnerName(ascii) ? { zona: ascii, type } : undefined;
}

/**
 * How many records the zone holds in an RRset (at most one page of 100 is read: the note it
 * feeds needs no more). The list filter matches names by substring, so the exact ones are counted.
 */
export function useRRsetSize(serviceId: number | undefined, owner: RRsetOwner | undefined) {
  return useQuery({
    queryKey: [...dnsQueryKey(serviceId ?? 0), 'rrset', owner?.zona, owner?.type],
    enabled: serviceId !== undefined && owner !== undefined,
    queryFn: async ({ signal }) => {
      const { zona, type } = owner as RRsetOwner;
      const data = await api<DnsListData>(
        DNS_API.list(serviceId as number),
        { page: 1, pageSize: 100, type, filter: zona },
        { method: 'GET', signal },
      );
      return (data?.dnss ?? []).filter((record) => record.zona === zona && record.type === type).length;
    },
  });
}
