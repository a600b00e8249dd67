import type { DnsListData } from '@panel247/contract/dns';
import { DNS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

/** Deletes every eliminable record (the provider's name servers stay). */
export async function deleteAllDnsRecords(serviceId: number) {
  return (await apiCall<DnsListData>(DNS_API.removeAll(serviceId), undefined, { method: 'POST' })).system.info;
}

export function useDeleteAllDnsRecords(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteAllDnsRecords(serviceId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnsQueryKey(serviceId) }),
  });
}
