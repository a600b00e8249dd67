import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { api, type Params } from './api-client';

/** A read call written as data: the browser makes it with `api`, the server's first render with its own routes. */
export interface ApiGetCall {
  path: string;
  params?: Params;
  /**
   * The one field of the answer the query holds, when its cache keeps that (a list, an item) and
   * not the whole answer: the server's first render puts the same field in the page's boot data.
   */
  field?: string;
}

/** A query whose call is data as well as a function: the view's hook, the boot's prefetch and the server share it. */
export interface ApiGetQuery<T> {
  queryKey: readonly unknown[];
  queryFn: (context: { signal?: AbortSignal }) => Promise<T>;
  call: ApiGetCall;
}

/** The query of a GET call: `call` says what the page's server asks (apps/server/src/http/server-render.ts). */
export function apiGetQuery<T>(queryKey: readonly unknown[], call: Omit<ApiGetCall, 'field'>): ApiGetQuery<T> {
  return {
    queryKey,
    queryFn: ({ signal }) => api<T>(call.path, call.params, { method: 'GET', signal }),
    call,
  };
}

/** The query of a GET call whose cache holds one field of the answer (`field`), as the view's code reads it. */
export function apiGetFieldQuery<T, K extends keyof T & string>(
  queryKey: readonly unknown[],
  call: Omit<ApiGetCall, 'field'>,
  field: K,
): ApiGetQuery<T[K]> {
  return {
    queryKey,
    queryFn: async ({ signal }) => (await api<T>(call.path, call.params, { method: 'GET', signal }))[field],
    call: { ...call, field },
  };
}

/** The page a list paged and filtered on the server opens on: the first, unfiltered. */
export const FIRST_LIST_PAGE: ListPageQuery = { page: 1, filter: '' };

/**
 * One page of a list paged and filtered on the server (`LIST_PAGE_SIZE` rows), under its list's
 * `pagesKey`, so that a change invalidates every page at once.
 */
export function listPageQuery<T>(pagesKey: readonly unknown[], path: string, query: ListPageQuery): ApiGetQuery<T> {
  return apiGetQuery<T>([...pagesKey, query], {
    path,
    params: { page: query.page, pageSize: LIST_PAGE_SIZE, filter: query.filter },
  });
}
