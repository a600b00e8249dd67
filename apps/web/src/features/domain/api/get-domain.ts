import type { DomainData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every query of one domain starts with this key: a broad invalidation reloads the whole view. */
export const domainRootKey = (id: number) => ['domain', id] as const;
export const domainQueryKey = (id: number) => [...domainRootKey(id), 'data'] as const;

export function getDomain(id: number, signal?: AbortSignal): Promise<DomainData> {
  return api<DomainData>(DOMAIN_API.domain(id), undefined, { method: 'GET', signal });
}

export function useDomain(id: number) {
  return useQuery({ queryKey: domainQueryKey(id), queryFn: ({ signal }) => getDomain(id, signal) });
}
