import type { GlueCreateParams, GlueListData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { glueQueryKey } from './list-glue-records';

/** `name` is a label under the domain ("ns1"); the server appends the domain. */
export type GlueCreateInput = Omit<GlueCreateParams, 'id'>;

export async function createGlueRecord(id: number, input: GlueCreateInput) {
  const { data, system } = await apiCall<GlueListData>(DOMAIN_API.glueCreate(id), { ...input });
  return { gluerecords: data.gluerecords, info: system.info };
}

export function useCreateGlueRecord(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GlueCreateInput) => createGlueRecord(id, input),
    onSuccess: ({ gluerecords }) => queryClient.setQueryData(glueQueryKey(id), gluerecords),
  });
}
