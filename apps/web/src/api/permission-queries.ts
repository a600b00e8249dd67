import type { PermissionListData, PermissionSetData } from '@panel247/contract/permissions';
import { API } from '@panel247/contract/routes';
import { ApiError, api } from '../lib/api-client';

/**
 * The permission calls and their cache options, shared by the hooks that read them and by the
 * boot's prefetch (app/query-client), so that both cache and retry alike. Free of React Query's
 * hooks: the prefetch is part of the first chunk, which the login page's budget counts.
 */

/** Everything under ['permissions'] is invalidated when the realtime socket says permissions changed. */
export const permissionListQueryKey = ['permissions', 'list'] as const;

export function getPermissionList(): Promise<PermissionListData> {
  return api<PermissionListData>(API.permissionList);
}

export const permissionListQuery = { queryKey: permissionListQueryKey, queryFn: getPermissionList };

export const permissionSetQueryKey = (id: number) => ['permissions', 'set', id] as const;

export function getPermissionSet(id: number): Promise<PermissionSetData> {
  return api<PermissionSetData>(API.permissionSet(id), undefined, { method: 'POST' });
}

export function permissionSetQuery(id: number) {
  return {
    queryKey: permissionSetQueryKey(id),
    queryFn: () => getPermissionSet(id),
    // Spec section 8: a failed permission load is retried; a 404 (unknown or foreign id) is final.
    retry: (count: number, error: Error) =>
      !(error instanceof ApiError && (error.status === 404 || error.sessionLost)) && count < 2,
  };
}
