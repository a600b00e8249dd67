import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSOLE_API, consoleApi } from './console-api';
import { type ConsoleJob, workQueryKey } from './list-work';

export async function retryJob(id: string): Promise<ConsoleJob> {
  return (await consoleApi<{ job: ConsoleJob }>(CONSOLE_API.jobRetry(id), undefined, { method: 'POST' })).job;
}

/**
 * A failed job (or one waiting for its retry) run again now. Whatever the answer (a 404: it is not
 * failed any more), the lists are read again.
 */
export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryJob,
    onSettled: () => queryClient.invalidateQueries({ queryKey: workQueryKey }),
  });
}
