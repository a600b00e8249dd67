import type { ConnectionData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { mailQueryKey } from './list-mail';

export type ConnectionHosts = ConnectionData['plain'];

export const connectionQueryKey = (serviceId: number) => [...mailQueryKey(serviceId), 'connection'] as const;

export function getConnectionData(serviceId: number, signal?: AbortSignal): Promise<ConnectionData> {
  return api<ConnectionData>(MAIL_API.connection(serviceId), undefined, { method: 'GET', signal });
}

/** Loaded when the connection data dialog opens; the hosts rarely change. */
export function useConnectionData(serviceId: number, enabled: boolean) {
  return useQuery({
    queryKey: connectionQueryKey(serviceId),
    queryFn: ({ signal }) => getConnectionData(serviceId, signal),
    enabled,
    staleTime: 5 * 60_000,
  });
}
