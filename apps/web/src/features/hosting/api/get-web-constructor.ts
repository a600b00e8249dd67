import type { WebConstructorData } from '@panel247/contract/hosting';
import { HOSTING_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { hostingQueryKey } from './get-hosting-service';

/** The site the builder works on ('*' the main domain, a subdomain label, or null before its first use). */
export async function getWebConstructor(serviceId: number, signal?: AbortSignal): Promise<string | null> {
  return (await api<WebConstructorData>(HOSTING_API.webConstructor(serviceId), undefined, { method: 'GET', signal }))
    .selected;
}

export function useWebConstructor(serviceId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...hostingQueryKey(serviceId), 'webconstructor'],
    queryFn: ({ signal }) => getWebConstructor(serviceId, signal),
    enabled,
    retry: false,
  });
}
