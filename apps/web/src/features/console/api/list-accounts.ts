import type { consoleAccountsDataSchema, consoleAccountsParamsSchema } from '@panel247/contract/console';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { SortChoice } from '../../../lib/list-sort';
import { CONSOLE_API, consoleApi, consoleQueryKey, consoleRetry } from './console-api';

export type ConsoleAccount = z.infer<typeof consoleAccountsDataSchema>['accounts'][number];
export type AccountSort = z.output<typeof consoleAccountsParamsSchema>['sort'];
export type AccountsQuery = ListPageQuery & SortChoice<AccountSort>;

/** The accounts' sort keys, in the order the sort choice offers them. */
export const ACCOUNT_SORTS = ['domain', 'brand'] as const satisfies readonly AccountSort[];

/** Every page of the accounts: a new account (the services' page makes them) invalidates them all. */
export const accountsQueryKey = [...consoleQueryKey, 'accounts'] as const;

export function listAccounts(query: AccountsQuery, signal?: AbortSignal) {
  return consoleApi<z.infer<typeof consoleAccountsDataSchema>>(
    CONSOLE_API.accounts,
    { ...query, pageSize: LIST_PAGE_SIZE },
    { method: 'GET', signal },
  );
}

/** One page of every account, filtered (domain or brand) and sorted on the server. */
export function useAccounts(query: AccountsQuery) {
  return useQuery({
    queryKey: [...accountsQueryKey, query],
    queryFn: ({ signal }) => listAccounts(query, signal),
    placeholderData: keepPreviousData,
    retry: consoleRetry,
  });
}
