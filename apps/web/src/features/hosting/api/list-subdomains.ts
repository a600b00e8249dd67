import type { Subdomain, SubdomainListData } from '@panel247/contract/hosting';
import { SUBDOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { hostingQueryKey } from './get-hosting-service';

export const subdomainsQueryKey = (serviceId: number) => [...hostingQueryKey(serviceId), 'subdomains'] as const;

export async function listSubdomains(serviceId: number, signal?: AbortSignal): Promise<Subdomain[]> {
  return (await api<SubdomainListData>(SUBDOMAIN_API.list(serviceId), undefined, { method: 'GET', signal })).subdomains;
}

export function useSubdomains(serviceId: number, enabled = true) {
  return useQuery({
    queryKey: subdomainsQueryKey(serviceId),
    queryFn: ({ signal }) => listSubdomains(serviceId, signal),
    enabled,
  });
}
