import type { AccountUserPermissionsCopyData } from '@panel247/contract/account-users';
import { USERS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { userPermissionsQueryKey } from './list-user-permissions';

/** "Same as another user": that user's levels on every resource the editor sees, within the editor's own. */
export async function copyUserPermissions(userId: number, from: number) {
  const { data, system } = await apiCall<AccountUserPermissionsCopyData>(
    USERS_API.permissionsCopy(userId),
    { from },
    { method: 'POST' },
  );
  return { ...data, info: system.info };
}

export function useCopyUserPermissions(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (from: number) => copyUserPermissions(userId, from),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userPermissionsQueryKey(userId) }),
  });
}
