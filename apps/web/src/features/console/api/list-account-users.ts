import type { consoleAccountUsersDataSchema } from '@panel247/contract/console';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONSOLE_API, consoleApi, consoleRetry } from './console-api';
import { accountsQueryKey } from './list-accounts';

export type AccountUser = z.infer<typeof consoleAccountUsersDataSchema>['users'][number];

export async function listAccountUsers(domain: string, signal?: AbortSignal): Promise<AccountUser[]> {
  return (
    await consoleApi<{ users: AccountUser[] }>(CONSOLE_API.accountUsers(domain), undefined, { method: 'GET', signal })
  ).users;
}

/** Grants or takes a user's right to manage the account's users; answers the account's users as they now are. */
export async function setUserManager(domain: string, username: string, manageUsers: boolean): Promise<AccountUser[]> {
  return (
    await consoleApi<{ users: AccountUser[] }>(
      CONSOLE_API.userManager(domain, username),
      { manageUsers: String(manageUsers) },
      { method: 'POST' },
    )
  ).users;
}

export function useSetUserManager(domain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ username, manageUsers }: { username: string; manageUsers: boolean }) =>
      setUserManager(domain, username, manageUsers),
    onSuccess: (users) => queryClient.setQueryData([...accountsQueryKey, 'users', domain], users),
  });
}

/** An account's users (none asked for while `domain` is null); an account gone since answers 404. */
export function useAccountUsers(domain: string | null) {
  return useQuery({
    queryKey: [...accountsQueryKey, 'users', domain],
    queryFn: ({ signal }) => listAccountUsers(domain ?? '', signal),
    enabled: domain !== null,
    retry: consoleRetry,
  });
}
