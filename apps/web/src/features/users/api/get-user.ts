import type { AccountUserData } from '@panel247/contract/account-users';
import { USERS_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../../../lib/api-query';
import { usersQueryKey } from './list-users';

export const userQueryKey = (id: number) => [...usersQueryKey, 'detail', id] as const;

/** One of the account's users; an unknown or foreign id answers 404 (the user's page's first call). */
export function accountUserQuery(id: number) {
  return apiGetQuery<AccountUserData>(userQueryKey(id), { path: USERS_API.user(id) });
}

export function useAccountUser(id: number | null) {
  return useQuery({ ...accountUserQuery(id ?? 0), enabled: id !== null });
}
