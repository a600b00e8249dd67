import type { DnssecListData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnssecQueryKey } from './list-dnssec';

export async function deleteDnssec(id: number, dnssecId: number) {
  const { system } = await apiCall<DnssecListData>(DOMAIN_API.dnssecDelete(id, dnssecId), undefined, {
    method: 'POST',
  });
  return system.info;
}

/** The list reloads whether the delete succeeded or failed (spec section 4). */
export function useDeleteDnssec(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dnssecId: number) => deleteDnssec(id, dnssecId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: dnssecQueryKey(id) }),
  });
}
