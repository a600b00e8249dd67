import type { Language } from '@panel247/contract/constants';
import { QueryClient } from '@tanstack/react-query';
import { configQueryKey, getConfig } from '../api/get-config';
import { getBootUserInfo, userInfoQueryKey } from '../api/get-user-info';
import { ApiError } from '../lib/api-client';

export const queryClient = new QueryClient({
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
export function prefetchUserInfo(): void {
  void queryClient.prefetchQuery({
    queryKey: userInfoQueryKey,
    queryFn: getBootUserInfo,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
