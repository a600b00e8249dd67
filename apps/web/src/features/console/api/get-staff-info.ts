import type { consoleInfoDataSchema } from '@panel247/contract/console';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONSOLE_API, consoleApi, consoleQueryKey, isStaffSessionLost } from './console-api';

export type StaffInfo = z.infer<typeof consoleInfoDataSchema>;

export const staffInfoQueryKey = [...consoleQueryKey, 'info'] as const;

/** Who is signed in to the console; null without a staff session (the 401 is the answer, not a failure). */
export async function getStaffInfo(signal?: AbortSignal): Promise<StaffInfo | null> {
  try {
    return await consoleApi<StaffInfo>(CONSOLE_API.info, undefined, { method: 'GET', signal });
  } catch (error) {
    if (isStaffSessionLost(error)) return null;
    throw error;
  }
}

export function useStaffInfo() {
  return useQuery({
    queryKey: staffInfoQueryKey,
    queryFn: ({ signal }) => getStaffInfo(signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}
