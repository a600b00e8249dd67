import type { DnsListData } from '@panel247/contract/dns';
import { DNS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

/** Replaces the zone with the provider's default records. */
export async function restoreDnsZone(serviceId: number) {
  return (await apiCall<DnsListData>(DNS_API.restore(serviceId), undefined, { method: 'POST' })).system.info;
}

export function useRestoreDnsZone(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => restoreDnsZone(serviceId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnsQueryKey(serviceId) }),
  });
}
