import type { HostingServiceData } from '@panel247/contract/hosting';
import { HOSTING_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { hostingServiceQueryKey } from './get-hosting-service';

/** Applies the service's pending web changes now ("try again"); answers the server's message. */
export async function applyWebChanges(serviceId: number) {
  return (await apiCall<HostingServiceData>(HOSTING_API.applyWeb(serviceId), undefined, { method: 'POST' })).system
    .info;
}

export function useApplyWebChanges(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => applyWebChanges(serviceId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: hostingServiceQueryKey(serviceId) }),
  });
}
