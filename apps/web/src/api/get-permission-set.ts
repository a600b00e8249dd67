import type { PermissionSetData } from '@panel247/contract/permissions';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { getPermissionSet, permissionSetQuery, permissionSetQueryKey } from './permission-queries';

export function usePermissionSet(id: number | null) {
  return useQuery({ ...permissionSetQuery(id ?? 0), enabled: id !== null && id > 0 });
}

/**
 * Asks the server for the set again, whatever the cache holds (a dialog about to act checks its
 * rights afresh); the cache gets the answer, so every view of the set follows.
 */
export function reloadPermissionSet(queryClient: QueryClient, id: number): Promise<PermissionSetData> {
  return queryClient.fetchQuery({
    queryKey: permissionSetQueryKey(id),
    queryFn: () => getPermissionSet(id),
    staleTime: 0,
  });
}
