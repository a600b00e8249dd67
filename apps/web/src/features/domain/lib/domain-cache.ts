import type { Domain, DomainData } from '@panel247/contract/domain';
import type { QueryClient } from '@tanstack/react-query';
import { domainQueryKey } from '../api/get-domain';

/** Calls that answer `{domain}` (toggles, DNS edit) update the cached domain data in place. */
export function setDomainInCache(queryClient: QueryClient, id: number, domain: Domain): void {
  queryClient.setQueryData<DomainData>(domainQueryKey(id), (current) => (current ? { ...current, domain } : current));
}
