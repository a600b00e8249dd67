import type { Language } from '@panel247/contract/constants';
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { configQueryKey, getConfig } from '../api/get-config';
import { getBootUserInfo, userInfoQueryKey } from '../api/get-user-info';
import {
  permissionListQuery,
  permissionListQueryKey,
  permissionSetQuery,
  permissionSetQueryKey,
} from '../api/permission-queries';
import { ApiError } from '../lib/api-client';
import { itemIdFromPath } from '../lib/resource-paths';

/**
 * An item's call answered 404 or 403 while its permission set, as this page holds it, opens the
 * view: the set is stale (a grant revoked since the page was sent, or since the set was read).
 * The set and the list are asked again, so the gate shows the not-found view, and the menus lose
 * the item, instead of the view staying open on a failed call. An item's queries are keyed
 * `[area, itemId, …]`; the permission queries themselves are left out (their 404 is final).
 */
function reloadStalePermissions(error: Error, queryKey: readonly unknown[]): void {
  const itemId = queryKey[1];
  if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 403)) return;
  if (queryKey[0] === 'permissions' || typeof itemId !== 'number') return;
  if (queryClient.getQueryData(permissionSetQueryKey(itemId)) === undefined) return;
  void queryClient.invalidateQueries({ queryKey: permissionSetQueryKey(itemId) });
  void queryClient.invalidateQueries({ queryKey: permissionListQueryKey });
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => reloadStalePermissions(error, query.queryKey) }),
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      // A lost session or a missing entity will not heal by retrying.
      retry: (count, error) =>
        !(error instanceof ApiError && (error.sessionLost || error.status === 404 || error.status === 403)) &&
        count < 1,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});

export function prefetchConfig(language: Language): void {
  void queryClient.prefetchQuery({ queryKey: configQueryKey(language), queryFn: getConfig, retry: 1 });
}

/**
 * Who is logged in, asked at boot beside the configuration rather than after it (both calls go to
 * the default base path the configuration call uses anyway): one round trip less before a signed-in
 * screen. The boot's query finds the answer in the cache.
 */
export function prefetchUserInfo(): Promise<void> {
  return queryClient.prefetchQuery({
    queryKey: userInfoQueryKey,
    queryFn: getBootUserInfo,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * A signed-in screen's first calls, asked once the session is known rather than once the layout's
 * code has arrived and rendered: the permissions that the menus and the item's gate wait for, so
 * that the view asks for its own data at its first render (the DNS view's LCP: about 70 ms less
 * on a quiet 2-core machine, 150 ms with the CPU slowed 3×). Only for a user: without a session
 * these calls would answer "session lost". An id that is not the user's answers 404 here and once
 * more when the gate mounts (React Query retries an error in the cache on mount): a second cheap
 * answer for a wrong address, rather than a gate that never retries a failed load.
 */
export function prefetchPermissions(pathname: string): void {
  if (!queryClient.getQueryData(userInfoQueryKey)) return;
  void queryClient.prefetchQuery(permissionListQuery);
  const itemId = itemIdFromPath(pathname);
  if (itemId !== null) void queryClient.prefetchQuery(permissionSetQuery(itemId));
}
