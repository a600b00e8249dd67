import type { DnsOneData, DnsSaveParams } from '@panel247/contract/dns';
import { DNS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

export type DnsSaveInput = Omit<DnsSaveParams, 'id' | 'dnsZoneId'>;

export async function saveDnsRecord(serviceId: number, recordId: number, input: DnsSaveInput) {
  const { data, system } = await apiCall<DnsOneData>(
    DNS_API.save(serviceId, recordId),
    { ...input },
    { method: 'POST' },
  );
  return { dns: data.dns, info: system.info };
}

export function useSaveDnsRecord(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ recordId, input }: { recordId: number; input: DnsSaveInput }) =>
      saveDnsRecord(serviceId, recordId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnsQueryKey(serviceId) }),
  });
}
