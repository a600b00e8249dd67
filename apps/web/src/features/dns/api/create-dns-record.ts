import type { DnsCreateParams, DnsOneData } from '@panel247/contract/dns';
import { DNS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

export type DnsCreateInput = Omit<DnsCreateParams, 'id'>;

export async function createDnsRecord(serviceId: number, input: DnsCreateInput) {
  const { data, system } = await apiCall<DnsOneData>(
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
