import type { DnsInitData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { domainRootKey } from './get-domain';

export const dnsInitQueryKey = (id: number) => [...domainRootKey(id), 'dnsinit'] as const;

export function getDnsInit(id: number, signal?: AbortSignal): Promise<DnsInitData> {
  return api<DnsInitData>(DOMAIN_API.dnsInit(id), undefined, { method: 'GET', signal });
}

/** Loaded when the DNS edit dialog opens; always fresh (the servers may have changed elsewhere). */
export function useDnsInit(id: number, enabled: boolean) {
  return useQuery({
    queryKey: dnsInitQueryKey(id),
    queryFn: ({ signal }) => getDnsInit(id, signal),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}
