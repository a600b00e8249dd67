import type { EmptyData } from '@panel247/contract/envelope';
import { USERS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { Levels } from '../lib/permission-levels';
import { userPermissionsQueryKey } from './list-user-permissions';

export interface UserPermissionsSetInput {
  resource: number;
  /** Every permission key (PERMISSION_KEYS), as the editor shows them. */
  levels: Levels;
}

/** A user's levels on one resource; the record travels as JSON in its form field (the contract parses it). */
export async function setUserPermissions(userId: number, input: UserPermissionsSetInput): Promise<string[]> {
  const { system } = await apiCall<EmptyData>(
    USERS_API.permissionsSet(userId),
    { resource: input.resource, levels: JSON.stringify(input.levels) },
    { method: 'POST' },
  );
  return system.info;
}

export function useSetUserPermissions(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UserPermissionsSetInput) => setUserPermissions(userId, input),
    // what the server kept (it may have held a key lower) is what the editor shows next
    onSettled: () => queryClient.invalidateQueries({ queryKey: userPermissionsQueryKey(userId) }),
  });
}
