import { api, type Params } from './api-client';

/** A read call written as data: the browser makes it with `api`, the server's first render with its own routes. */
export interface ApiGetCall {
  path: string;
  params?: Params;
}

/** A query whose call is data as well as a function: the view's hook, the boot's prefetch and the server share it. */
export interface ApiGetQuery<T> {
  queryKey: readonly unknown[];
  queryFn: (context: { signal?: AbortSignal }) => Promise<T>;
  call: ApiGetCall;
}

/** The query of a GET call: `call` says what the page's server asks (apps/server/src/http/server-render.ts). */
export function apiGetQuery<T>(queryKey: readonly unknown[], call: ApiGetCall): ApiGetQuery<T> {
  return {
    queryKey,
    queryFn: ({ signal }) => api<T>(call.path, call.params, { method: 'GET', signal }),
    call,
  };
}
