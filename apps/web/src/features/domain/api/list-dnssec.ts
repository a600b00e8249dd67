import type { DnssecEntry, DnssecListData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { domainRootKey } from './get-domain';

export const dnssecQueryKey = (id: number) => [...domainRootKey(id), 'dnssec'] as const;

export async function listDnssec(id: number, signal?: AbortSignal): Promise<DnssecEntry[]> {
  return (await api<DnssecListData>(DOMAIN_API.dnssecList(id), undefined, { method: 'GET', signal })).dnssec;
}

export function useDnssecList(id: number, enabled = true) {
  return useQuery({ queryKey: dnssecQueryKey(id), queryFn: ({ signal }) => listDnssec(id, signal), enabled });
}
