import type { ErrorLogData, ErrorLogLine } from '@panel247/contract/hosting';
import { HOSTING_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { hostingQueryKey } from './get-hosting-service';

/** The tail of the service's nginx and PHP error logs, oldest line first. */
export async function getErrorLog(serviceId: number, signal?: AbortSignal): Promise<ErrorLogLine[]> {
  return (await api<ErrorLogData>(HOSTING_API.logError(serviceId), undefined, { method: 'GET', signal })).logs;
}

/** Read fresh each time the viewer opens, and dropped when it closes. */
export function useErrorLog(serviceId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...hostingQueryKey(serviceId), 'logerror'],
    queryFn: ({ signal }) => getErrorLog(serviceId, signal),
    enabled,
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
}
