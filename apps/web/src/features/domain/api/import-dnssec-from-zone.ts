import type { DnssecListData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnssecQueryKey } from './list-dnssec';

/** Beyond the spec: the DS records of the zone hosted here (PowerDNS DNSSEC on), in one call. */
export async function importDnssecFromZone(id: number) {
  const { data, system } = await apiCall<DnssecListData>(DOMAIN_API.dnssecFromZone(id), undefined, {
    method: 'POST',
  });
  return { created: data.dnssec, info: system.info };
}

export function useImportDnssecFromZone(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => importDnssecFromZone(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnssecQueryKey(id) }),
  });
}
