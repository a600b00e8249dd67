import type { ACCOUNT_USERS_SORT, AccountUsersListData } from '@panel247/contract/account-users';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { USERS_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGetQuery, FIRST_LIST_PAGE } from '../../../lib/api-query';
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

/** The order the users' page opens in: by name. */
export const FIRST_USERS_SORT: SortChoice<UsersSort> = { sort: 'username', order: 'asc' };
/** The page the users' page opens on: the first, unfiltered, by name. */
export const FIRST_USERS_PAGE: UsersQuery = { ...FIRST_LIST_PAGE, ...FIRST_USERS_SORT };

/** One page of the users, filtered and sorted on the server; the first is the users' page's first call. */
export function usersPageQuery(query: UsersQuery) {
  return apiGetQuery<AccountUsersListData>([...usersListQueryKey, query], {
    path: USERS_API.list,
    params: {
      page: query.page,
      pageSize: query.pageSize ?? LIST_PAGE_SIZE,
      filter: query.filter,
      sort: query.sort,
      order: query.order,
    },
  });
}

export function useUsers(query: UsersQuery, enabled = true) {
  return useQuery({
    ...usersPageQuery(query),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
    enabled,
  });
}
