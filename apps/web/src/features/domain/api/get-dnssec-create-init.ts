import type { DnssecCreateInitData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { domainRootKey } from './get-domain';

export const dnssecCreateInitQueryKey = (id: number) => [...domainRootKey(id), 'dnssec-createinit'] as const;

/** `dnssec/createinit/`: the registry's key type and code → label maps. */
export function getDnssecCreateInit(id: number, signal?: AbortSignal): Promise<DnssecCreateInitData> {
  return api<DnssecCreateInitData>(DOMAIN_API.dnssecCreateInit(id), undefined, { method: 'GET', signal });
}

export function useDnssecCreateInit(id: number, enabled: boolean) {
  return useQuery({
    queryKey: dnssecCreateInitQueryKey(id),
    queryFn: ({ signal }) => getDnssecCreateInit(id, signal),
    enabled,
    staleTime: 0,
  });
}
