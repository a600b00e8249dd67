import type { EmptyData } from '@panel247/contract/envelope';
import { DNS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

/** A record the zone may not lose (eliminable false) answers 403 with the server's message. */
export async function deleteDnsRecord(serviceId: number, recordId: number) {
  return (await apiCall<EmptyData>(DNS_API.remove(serviceId, recordId), undefined, { method: 'POST' })).system.info;
}

export function useDeleteDnsRecord(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recordId: number) => deleteDnsRecord(serviceId, recordId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnsQueryKey(serviceId) }),
  });
}
