import type { EmptyData } from '@panel247/contract/envelope';
import { USERS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { usersQueryKey } from './list-users';

export interface UserManagerInput {
  id: number;
  manageUsers: boolean;
}

/** Gives a user the account's right to manage users, or takes it (never one's own). */
export async function setUserManager({ id, manageUsers }: UserManagerInput): Promise<string[]> {
  return (await apiCall<EmptyData>(USERS_API.manager(id), { manageUsers }, { method: 'POST' })).system.info;
}

export function useSetUserManager() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserManager,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
