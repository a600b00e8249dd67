import type { Redirection, RedirectionListData } from '@panel247/contract/hosting';
import { REDIRECTION_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { hostingQueryKey } from './get-hosting-service';

export const redirectionsQueryKey = (serviceId: number) => [...hostingQueryKey(serviceId), 'redirections'] as const;

export async function listRedirections(serviceId: number, signal?: AbortSignal): Promise<Redirection[]> {
  return (await api<RedirectionListData>(REDIRECTION_API.list(serviceId), undefined, { method: 'GET', signal }))
    .redirection;
}

export function useRedirections(serviceId: number, enabled = true) {
  return useQuery({
    queryKey: redirectionsQueryKey(serviceId),
    queryFn: ({ signal }) => listRedirections(serviceId, signal),
    enabled,
  });
}
