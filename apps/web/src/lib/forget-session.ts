import type { QueryClient } from '@tanstack/react-query';
import { userInfoQueryKey } from '../api/get-user-info';

/**
 * After logout or a password change: the session becomes null first (the guards unmount every
 * screen that reads account data), then the cached data of the account is dropped, so nothing
 * refetches with the dead session and the next login starts clean.
 */
export function forgetSession(queryClient: QueryClient): void {
  queryClient.setQueryData(userInfoQueryKey, null);
  setTimeout(() => {
    queryClient.removeQueries({
      predicate: (query) => query.queryKey[0] !== 'config' && query.queryKey[0] !== 'session',
    });
  }, 0);
}
