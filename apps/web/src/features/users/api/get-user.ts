import type { AccountUserData } from '@panel247/contract/account-users';
import { USERS_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './list-users';

export const userQueryKey = (id: number) => [...usersQueryKey, 'detail', id] as const;

/** One of the account's users; an unknown or foreign id answers 404. */
export function getUser(id: number, signal?: AbortSignal): Promise<AccountUserData> {
  return api<AccountUserData>(USERS_API.user(id), undefined, { method: 'GET', signal });
}

export function useAccountUser(id: number | null) {
  return useQuery({
    queryKey: userQueryKey(id ?? 0),
    queryFn: ({ signal }) => getUser(id ?? 0, signal),
    enabled: id !== null,
  });
}
