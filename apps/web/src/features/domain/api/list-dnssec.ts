import type { DnssecListData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiGetFieldQuery } from '../../../lib/api-query';
import { domainRootKey } from './get-domain';

export const dnssecQueryKey = (id: number) => [...domainRootKey(id), 'dnssec'] as const;

/** The domain's DNSSEC entries at the registry, as the DNS card previews them and its dialog lists them. */
export function dnssecListQuery(id: number) {
  return apiGetFieldQuery<DnssecListData, 'dnssec'>(dnssecQueryKey(id), { path: DOMAIN_API.dnssecList(id) }, 'dnssec');
}

export function useDnssecList(id: number, enabled = true) {
  return useQuery({ ...dnssecListQuery(id), enabled });
}
