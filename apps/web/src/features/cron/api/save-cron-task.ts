import { CRON_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { CronTaskFields } from '../lib/cron-form';
import { type CronTasksAnswer, useCacheTasks } from './list-cron-tasks';

export async function saveCronTask(serviceId: number, taskId: number, fields: CronTaskFields) {
  const { data, system } = await apiCall<CronTasksAnswer>(CRON_API.save(serviceId, taskId), fields, {
    method: 'POST',
  });
  return { tasks: data.tasks, info: system.info };
}

/** The cached list takes the tasks as the server answers them (the schedule's new wording, next runs). */
export function useSaveCronTask(serviceId: number) {
  const putTasks = useCacheTasks(serviceId);
  return useMutation({
    mutationFn: ({ taskId, fields }: { taskId: number; fields: CronTaskFields }) =>
      saveCronTask(serviceId, taskId, fields),
    onSuccess: ({ tasks }) => putTasks(tasks),
  });
}
