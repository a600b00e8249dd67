import type { consoleAccountUsersDataSchema } from '@panel247/contract/console';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONSOLE_API, consoleApi, consoleRetry } from './console-api';
import { accountsQueryKey } from './list-accounts';

export type AccountUser = z.infer<typeof consoleAccountUsersDataSchema>['users'][number];

export async function listAccountUsers(domain: string, signal?: AbortSignal): Promise<AccountUser[]> {
  return (
    await consoleApi<{ users: AccountUser[] }>(CONSOLE_API.accountUsers(domain), undefined, { method: 'GET', signal })
  ).users;
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
