import type { ACCOUNT_USERS_SORT, AccountUsersListData } from '@panel247/contract/account-users';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { USERS_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { SortChoice } from '../../../lib/list-sort';

export type UsersSort = (typeof ACCOUNT_USERS_SORT)[number];
export const USERS_SORTS = ['username', 'lastLogin'] as const satisfies readonly UsersSort[];

export type UsersQuery = ListPageQuery & SortChoice<UsersSort> & { pageSize?: number };

/**
 * The account's users: lists and each user's page. Not under ['permissions']: a permission change
 * elsewhere does not change who the users are (the permission editor's query is, see
 * list-user-permissions).
 */
export const usersQueryKey = ['users'] as const;
export const usersListQueryKey = [...usersQueryKey, 'list'] as const;

/** One page of the users, filtered and sorted on the server. */
export function listUsers(query: UsersQuery, signal?: AbortSignal): Promise<AccountUsersListData> {
  return api<AccountUsersListData>(
    USERS_API.list,
    {
      page: query.page,
      pageSize: query.pageSize ?? LIST_PAGE_SIZE,
      filter: query.filter,
      sort: query.sort,
      order: query.order,
    },
    { method: 'GET', signal },
  );
}

export function useUsers(query: UsersQuery, enabled = true) {
  return useQuery({
    queryKey: [...usersListQueryKey, query],
    queryFn: ({ signal }) => listUsers(query, signal),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
    enabled,
  });
}
