import { CRON_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { cronQueryKey } from './list-cron-tasks';

/**
 * The run is noted a moment after the call answers: the list is read once more after this long,
 * and from then on while the task runs (see useCronTasks).
 */
const RUN_SETTLE_MS = 1500;

/** Starts a task now, outside its schedule; returns the server's info messages. */
export async function runCronTask(serviceId: number, taskId: number): Promise<string[]> {
  return (await apiCall<unknown>(CRON_API.run(serviceId, taskId), undefined, { method: 'POST' })).system.info;
}

export function useRunCronTask(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (taskId: number) => runCronTask(serviceId, taskId),
    onSuccess: () => {
      const refresh = () => queryClient.invalidateQueries({ queryKey: cronQueryKey(serviceId) });
      void refresh();
      setTimeout(() => void refresh(), RUN_SETTLE_MS);
    },
  });
}
