import type { DatabasesListData, HostedDatabase } from '@panel247/contract/databases';
import { DDBB_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../lib/api-query';
import { PENDING_WORK_REFRESH_MS } from '../lib/use-work-refresh';

/** The databases and the plan's limit. */
export type DatabaseList = DatabasesListData;

/** Every database query of a service starts with this key. */
export const databaseQueriesKey = (serviceId: number) => ['databases', serviceId] as const;
export const databasesQueryKey = (serviceId: number) => [...databaseQueriesKey(serviceId), 'list'] as const;

/** The databases, their limit and whether their changes are all on the server: the view's first call. */
export function databasesQuery(serviceId: number) {
  return apiGetQuery<DatabaseList>(databasesQueryKey(serviceId), { path: DDBB_API.list(serviceId) });
}

export function useDatabases(serviceId: number, enabled = true) {
  return useQuery({
    ...databasesQuery(serviceId),
    enabled,
    refetchInterval: (query) => (query.state.data?.applying ? PENDING_WORK_REFRESH_MS : false),
  });
}

/** The cached list with `update` applied to its databases (the limit stays). */
export function updateDatabases(
  list: DatabaseList | undefined,
  update: (databases: HostedDatabase[]) => HostedDatabase[],
): DatabaseList | undefined {
  return list ? { ...list, ddbb: update(list.ddbb) } : list;
}
