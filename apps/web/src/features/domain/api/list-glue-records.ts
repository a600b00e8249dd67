import type { GlueListData, GlueRecord } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { domainRootKey } from './get-domain';

export const glueQueryKey = (id: number) => [...domainRootKey(id), 'glue'] as const;

export async function listGlueRecords(id: number, signal?: AbortSignal): Promise<GlueRecord[]> {
  return (await api<GlueListData>(DOMAIN_API.glueList(id), undefined, { method: 'GET', signal })).gluerecords;
}

/** A failed load leaves the list empty (spec section 8): the error is in the query state, not a toast. */
export function useGlueRecords(id: number, enabled = true) {
  return useQuery({ queryKey: glueQueryKey(id), queryFn: ({ signal }) => listGlueRecords(id, signal), enabled });
}
