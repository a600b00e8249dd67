import type { PermissionListData } from '@panel247/contract/permissions';
import { API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client';

/** Everything under ['permissions'] is invalidated when the realtime socket says permissions changed. */
export const permissionListQueryKey = ['permissions', 'list'] as const;

export function getPermissionList(): Promise<PermissionListData> {
  return api<PermissionListData>(API.permissionList);
}

export function usePermissionList(enabled = true) {
  return useQuery({ queryKey: permissionListQueryKey, queryFn: getPermissionList, enabled });
}
