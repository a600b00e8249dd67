import type { QueryClient } from '@tanstack/react-query';
import { consoleQueryKey } from '../api/console-api';
import { staffInfoQueryKey } from '../api/get-staff-info';

/**
 * The staff session is over (signed out, or a call answered 401): nobody is signed in, so the
 * guard sends the console to its sign-in page; then every other console answer is dropped, once
 * the screens that read them have gone, so the next staff user starts clean.
 */
export function forgetStaff(queryClient: QueryClient): void {
  queryClient.setQueryData(staffInfoQueryKey, null);
  setTimeout(() => {
    queryClient.removeQueries({
      queryKey: consoleQueryKey,
      predicate: (query) => query.queryKey[1] !== staffInfoQueryKey[1],
    });
  }, 0);
}
