import type { GlueListData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiGetFieldQuery } from '../../../lib/api-query';
import { domainRootKey } from './get-domain';

export const glueQueryKey = (id: number) => [...domainRootKey(id), 'glue'] as const;

/** The domain's glue records, as the DNS card previews them and its dialog lists them. */
export function glueRecordsQuery(id: number) {
  return apiGetFieldQuery<GlueListData, 'gluerecords'>(
    glueQueryKey(id),
    { path: DOMAIN_API.glueList(id) },
    'gluerecords',
  );
}

/** A failed load leaves the list empty (spec section 8): the error is in the query state, not a toast. */
export function useGlueRecords(id: number, enabled = true) {
  return useQuery({ ...glueRecordsQuery(id), enabled });
}
