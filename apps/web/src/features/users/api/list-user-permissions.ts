import type { AccountUserPermissionsData } from '@panel247/contract/account-users';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { USERS_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * A user's permission editor. Under ['permissions'] on purpose: when the realtime socket says
 * permissions changed (the editor's own, which cap what they may give, or this user's, changed
 * elsewhere), the editor reads them again.
 */
export const userPermissionsQueryKey = (userId: number) => ['permissions', 'users', userId] as const;

/** One page of the editor's resources with this user's levels and the editor's caps, filtered on the reference. */
export function listUserPermissions(
  userId: number,
  query: ListPageQuery,
  signal?: AbortSignal,
): Promise<AccountUserPermissionsData> {
  return api<AccountUserPermissionsData>(
    USERS_API.permissions(userId),
    { page: query.page, pageSize: LIST_PAGE_SIZE, filter: query.filter },
    { method: 'GET', signal },
  );
}

export function useUserPermissions(userId: number, query: ListPageQuery) {
  return useQuery({
    queryKey: [...userPermissionsQueryKey(userId), query],
    queryFn: ({ signal }) => listUserPermissions(userId, query, signal),
    placeholderData: keepPreviousData,
  });
}
