import type { ConsoleService, consoleServicesParamsSchema } from '@panel247/contract/console';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { SortChoice } from '../../../lib/list-sort';
import { CONSOLE_API, consoleApi, consoleQueryKey, consoleRetry } from './console-api';

export type ServiceSort = z.output<typeof consoleServicesParamsSchema>['sort'];
export type ServicesQuery = ListPageQuery & SortChoice<ServiceSort>;

/** The sort keys of the services' list, in the order the sort choice offers them. */
export const SERVICE_SORTS = ['domain', 'account', 'plan', 'state'] as const satisfies readonly ServiceSort[];

/** Every page of the services: a change to any service invalidates them as a whole. */
export const servicesQueryKey = [...consoleQueryKey, 'services'] as const;

export function listServices(query: ServicesQuery, signal?: AbortSignal) {
  return consoleApi<{ services: ConsoleService[]; total?: number }>(
    CONSOLE_API.services,
    { ...query, pageSize: LIST_PAGE_SIZE },
    { method: 'GET', signal },
  );
}

/** One page of every hosting service, filtered and sorted on the server. */
export function useServices(query: ServicesQuery) {
  return useQuery({
    queryKey: [...servicesQueryKey, query],
    queryFn: ({ signal }) => listServices(query, signal),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
    retry: consoleRetry,
  });
}
