import type { CronRun, CronRunsData } from '@panel247/contract/cron';
import { CRON_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { anyRunRunning } from '../lib/cron-runs';
import { cronQueryKey } from './list-cron-tasks';

/** How often the runs are asked again while one of them runs. */
const RUNNING_POLL_MS = 3000;

/** A task's last runs, newest first. */
export async function listCronRuns(serviceId: number, taskId: number, signal?: AbortSignal): Promise<CronRun[]> {
  return (await api<CronRunsData>(CRON_API.runs(serviceId, taskId), undefined, { method: 'GET', signal })).runs;
}

/** Read each time the dialog opens (a run may have ended since), and followed while one runs. */
export function useCronRuns(serviceId: number, taskId: number | null) {
  return useQuery({
    queryKey: [...cronQueryKey(serviceId), 'runs', taskId] as const,
    queryFn: ({ signal }) => listCronRuns(serviceId, taskId as number, signal),
    enabled: taskId !== null,
    staleTime: 0,
    refetchInterval: (query) => (anyRunRunning(query.state.data ?? []) ? RUNNING_POLL_MS : false),
  });
}
