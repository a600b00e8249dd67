import type { HostingService, HostingServiceData } from '@panel247/contract/hosting';
import { HOSTING_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every hosting query of a service starts with this key. */
export const hostingQueryKey = (serviceId: number) => ['hosting', serviceId] as const;
export const hostingServiceQueryKey = (serviceId: number) => [...hostingQueryKey(serviceId), 'service'] as const;

/** The service: usage, PHP versions, parking and the permission map. */
export async function getHostingService(serviceId: number, signal?: AbortSignal): Promise<HostingService> {
  return (await api<HostingServiceData>(HOSTING_API.service(serviceId), undefined, { method: 'GET', signal })).service;
}

/**
 * While changes wait for the web server, the service is asked again this often: a safety net
 * for a realtime socket that was away when they landed (its `work.changed` event reads it at once).
 */
const APPLYING_REFRESH_MS = 30_000;

export function useHostingService(serviceId: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: hostingServiceQueryKey(serviceId),
    queryFn: ({ signal }) => getHostingService(serviceId, signal),
    refetchInterval: (query) => (query.state.data?.applying ? APPLYING_REFRESH_MS : false),
  });
}
