import type { DomainData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../../../lib/api-query';

/** Every query of one domain starts with this key: a broad invalidation reloads the whole view. */
export const domainRootKey = (id: number) => ['domain', id] as const;
export const domainQueryKey = (id: number) => [...domainRootKey(id), 'data'] as const;

/** The domain and its contacts: the view's, the boot's prefetch's and the server's first render's call. */
export function domainQuery(id: number) {
  return apiGetQuery<DomainData>(domainQueryKey(id), { path: DOMAIN_API.domain(id) });
}

export function useDomain(id: number) {
  return useQuery(domainQuery(id));
}
