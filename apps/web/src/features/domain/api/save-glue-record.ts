import type { GlueListData, GlueSaveParams } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { glueQueryKey } from './list-glue-records';

export type GlueSaveInput = Omit<GlueSaveParams, 'id'>;

export async function saveGlueRecord(id: number, { glueId, ip, ipv6 }: GlueSaveInput) {
  const { data, system } = await apiCall<GlueListData>(DOMAIN_API.glueSave(id, glueId), {
    ip,
    ipv6,
  });
  return { gluerecords: data.gluerecords, info: system.info };
}

export function useSaveGlueRecord(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GlueSaveInput) => saveGlueRecord(id, input),
    onSuccess: ({ gluerecords }) => queryClient.setQueryData(glueQueryKey(id), gluerecords),
  });
}
