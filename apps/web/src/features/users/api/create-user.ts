import type { AccountUserCreateParams } from '@panel247/contract/account-users';
import { USERS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { usersListQueryKey } from './list-users';

/** Invites a new user: the server mails them the link to set their password. */
export async function createUser(input: AccountUserCreateParams) {
  const { data, system } = await apiCall<{ id: number }>(
    USERS_API.create,
    { username: input.username, email: input.email },
    { method: 'POST' },
  );
  return { id: data.id, info: system.info };
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    // the server pages and sorts: where the new user lands is its answer
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersListQueryKey }),
  });
}
