import type { EmptyData } from '@panel247/contract/envelope';
import { DNS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnsQueryKey } from './list-dns-records';

/** Publishes the zone's pending changes now ("try again"); answers the server's message. */
export async function publishDnsZone(serviceId: number) {
  return (await apiCall<EmptyData>(DNS_API.publish(serviceId), undefined, { method: 'POST' })).system.info;
}

export function usePublishDnsZone(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => publishDnsZone(serviceId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: dnsQueryKey(serviceId) }),
  });
}
