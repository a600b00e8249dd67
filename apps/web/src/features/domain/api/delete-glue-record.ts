import type { GlueListData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { glueQueryKey } from './list-glue-records';

export async function deleteGlueRecord(id: number, glueId: number) {
  const { system } = await apiCall<GlueListData>(DOMAIN_API.glueDelete(id, glueId), undefined, {
    method: 'POST',
  });
  return system.info;
}

/** The list reloads whether the delete succeeded or failed (spec section 4). */
export function useDeleteGlueRecord(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (glueId: number) => deleteGlueRecord(id, glueId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: glueQueryKey(id) }),
  });
}
