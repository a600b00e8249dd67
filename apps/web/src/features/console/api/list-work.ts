import type { consoleWorkDataSchema, consoleWorkParamsSchema } from '@panel247/contract/console';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONSOLE_API, consoleApi, consoleQueryKey, consoleRetry } from './console-api';

export type WorkData = z.infer<typeof consoleWorkDataSchema>;
export type ConsoleJob = WorkData['jobs'][number];
export type WaitingChange = WorkData['changes'][number];
export type WorkFilter = z.output<typeof consoleWorkParamsSchema>['state'];

/** The filters of the jobs, in the order the choice offers them. */
export const WORK_FILTERS = ['open', 'failed', 'retrying'] as const satisfies readonly WorkFilter[];

export const workQueryKey = [...consoleQueryKey, 'work'] as const;

export function listWork(state: WorkFilter, signal?: AbortSignal): Promise<WorkData> {
  return consoleApi<WorkData>(CONSOLE_API.work, { state }, { method: 'GET', signal });
}

/** The work log's jobs in one state (the newest 100), and the changes still on their way to a server. */
export function useWork(state: WorkFilter) {
  return useQuery({
    queryKey: [...workQueryKey, state],
    queryFn: ({ signal }) => listWork(state, signal),
    retry: consoleRetry,
  });
}
