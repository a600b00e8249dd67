import type { DnsRecord } from '@panel247/contract/dns';
import { DNS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

export interface DnsCreateInput {
  type: string;
  zona: string;
  value: string;
  ttl: number;
  priority: number;
}

export async function createDnsRecord(serviceId: number, input: DnsCreateInput) {
  const { data, system } = await apiCall<{ dns: DnsRecord }>(
    DNS_API.create(serviceId),
    { ...input },
    {
      method: 'POST',
    },
  );
  return { dns: data.dns, info: system.info };
}

export function useCreateDnsRecord(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DnsCreateInput) => createDnsRecord(serviceId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnsQueryKey(serviceId) }),
  });
}
