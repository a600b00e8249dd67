import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { domainRootKey } from './get-domain';

/** `dnssec/createinit/`: the registry's key type and code → label maps (as `dnssecCreateInitDataSchema`). */
export interface DnssecCreateInit {
  type: 'digest' | 'pubkey';
  algorithms: Record<string, string>;
  digestTypes: Record<string, string>;
  flags: Record<string, string>;
  protocols: Record<string, string>;
  /** The domain's zone is served here with DNSSEC on: its DS records can be added in one click. */
  zoneKeysAvailable: boolean;
}

export const dnssecCreateInitQueryKey = (id: number) => [...domainRootKey(id), 'dnssec-createinit'] as const;

export function getDnssecCreateInit(id: number, signal?: AbortSignal): Promise<DnssecCreateInit> {
  return api<DnssecCreateInit>(DOMAIN_API.dnssecCreateInit(id), undefined, { method: 'GET', signal });
}

export function useDnssecCreateInit(id: number, enabled: boolean) {
  return useQuery({
    queryKey: dnssecCreateInitQueryKey(id),
    queryFn: ({ signal }) => getDnssecCreateInit(id, signal),
    enabled,
    staleTime: 0,
  });
}
