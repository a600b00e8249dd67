import type { PermissionSetData } from '@panel247/contract/permissions';
import { API } from '@panel247/contract/routes';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../lib/api-client';

export const permissionSetQueryKey = (id: number) => ['permissions', 'set', id] as const;

export function getPermissionSet(id: number): Promise<PermissionSetData> {
  return api<PermissionSetData>(API.permissionSet(id), undefined, { method: 'POST' });
}

export function usePermissionSet(id: number | null) {
  return useQuery({
    queryKey: permissionSetQueryKey(id ?? 0),
    queryFn: () => getPermissionSet(id ?? 0),
    enabled: id !== null && id > 0,
    // Spec section 8: a failed permission load is retried; a 404 (unknown or foreign id) is final.
    retry: (count, error) => !(error instanceof ApiError && (error.status === 404 || error.sessionLost)) && count < 2,
  });
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
