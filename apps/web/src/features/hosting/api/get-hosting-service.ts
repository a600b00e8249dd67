import type { HostingServiceData } from '@panel247/contract/hosting';
import { HOSTING_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiGetFieldQuery } from '../../../lib/api-query';
import { PENDING_WORK_REFRESH_MS } from '../../../lib/use-work-refresh';

/** Every hosting query of a service starts with this key. */
export const hostingQueryKey = (serviceId: number) => ['hosting', serviceId] as const;
export const hostingServiceQueryKey = (serviceId: number) => [...hostingQueryKey(serviceId), 'service'] as const;

/**
 * The service (usage, PHP versions, parking and the permission map): one call, which the
 * overview's hooks, the boot's prefetch and the server's first render share (app/route-data.ts).
 */
export function hostingServiceQuery(serviceId: number) {
  return apiGetFieldQuery<HostingServiceData, 'service'>(
    hostingServiceQueryKey(serviceId),
    { path: HOSTING_API.service(serviceId) },
    'service',
  );
}

export function useHostingService(serviceId: number, enabled = true) {
  return useQuery({
    ...hostingServiceQuery(serviceId),
    enabled,
    refetchInterval: (query) => (query.state.data?.applying ? PENDING_WORK_REFRESH_MS : false),
  });
}
