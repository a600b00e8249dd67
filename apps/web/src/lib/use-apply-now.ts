import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './api-client';

/**
 * An area's "try again" (POST `path`: its pending changes to their server now): answers the
 * server's message, and reads `queryKey` (where the area shows its pending state) again after.
 */
export function useApplyNow(path: string, queryKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await apiCall<unknown>(path, undefined, { method: 'POST' })).system.info,
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
