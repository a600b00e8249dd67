import type { DnsOneData, DnsRecord } from '@panel247/contract/dns';
import { DNS_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

export const dnsRecordQueryKey = (serviceId: number, recordId: number) =>
  [...dnsQueryKey(serviceId), 'record', recordId] as const;

export async function getDnsRecord(serviceId: number, recordId: number, signal?: AbortSignal): Promise<DnsRecord> {
  return (await api<DnsOneData>(DNS_API.one(serviceId, recordId), undefined, { method: 'GET', signal })).dns;
}

/** The edit dialog loads the record fresh (never from the list's possibly stale page). */
export function useDnsRecord(serviceId: number, recordId: number | null) {
  return useQuery({
    queryKey: dnsRecordQueryKey(serviceId, recordId ?? 0),
    queryFn: ({ signal }) => getDnsRecord(serviceId, recordId ?? 0, signal),
    enabled: recordId !== null,
    staleTime: 0,
    gcTime: 0,
  });
}
