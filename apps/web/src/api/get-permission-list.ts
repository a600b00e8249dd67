import { useQuery } from '@tanstack/react-query';
import { permissionListQuery } from './permission-queries';

export function usePermissionList(enabled = true) {
  return useQuery({ ...permissionListQuery, enabled });
}
