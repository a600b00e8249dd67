import type { HostingService, HostingServiceData } from '@panel247/contract/hosting';
import { HOSTING_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PENDING_WORK_REFRESH_MS } from '../../../lib/use-work-refresh';

/** Every hosting query of a service starts with this key. */
export const hostingQueryKey = (serviceId: number) => ['hosting', serviceId] as const;
export const hostingServiceQueryKey = (serviceId: number) => [...hostingQueryKey(serviceId), 'service'] as const;

/** The service: usage, PHP versions, parking and the permission map. */
export async function getHostingService(serviceId: number, signal?: AbortSignal): Promise<HostingService> {
  return (await api<HostingServiceData>(HOSTING_API.service(serviceId), undefined, { method: 'GET', signal })).service;
}

export function useHostingService(serviceId: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: hostingServiceQueryKey(serviceId),
    queryFn: ({ signal }) => getHostingService(serviceId, signal),
    refetchInterval: (query) => (query.state.data?.applying ? PENDING_WORK_REFRESH_MS : false),
  });
}
