import { CRON_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { CronTaskFields } from '../lib/cron-form';
import { type CronTasksAnswer, useCacheTasks } from './list-cron-tasks';

export async function createCronTask(serviceId: number, fields: CronTaskFields) {
  const { data, system } = await apiCall<CronTasksAnswer>(CRON_API.create(serviceId), fields, { method: 'POST' });
  return { tasks: data.tasks, info: system.info };
}

/** The new task joins the cached list with the others as the server answers them. */
export function useCreateCronTask(serviceId: number) {
  const putTasks = useCacheTasks(serviceId);
  return useMutation({
    mutationFn: (fields: CronTaskFields) => createCronTask(serviceId, fields),
    onSuccess: ({ tasks }) => putTasks(tasks),
  });
}
