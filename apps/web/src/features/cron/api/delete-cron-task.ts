import { CRON_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { type CronTasksAnswer, useCacheTasks } from './list-cron-tasks';

/** Returns the server's info messages (the first one is shown). */
export async function deleteCronTask(serviceId: number, taskId: number) {
  const { data, system } = await apiCall<CronTasksAnswer>(CRON_API.remove(serviceId, taskId), undefined, {
    method: 'POST',
  });
  return { tasks: data.tasks, info: system.info };
}

export function useDeleteCronTask(serviceId: number) {
  const putTasks = useCacheTasks(serviceId);
  return useMutation({
    mutationFn: (taskId: number) => deleteCronTask(serviceId, taskId),
    onSuccess: ({ tasks }) => putTasks(tasks),
  });
}
