import type { CronListData, CronTask } from '@panel247/contract/cron';
import { CRON_API } from '@panel247/contract/routes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiGetQuery } from '../../../lib/api-query';
import { useTranslation } from '../../../lib/use-translation';
import { anyTaskRunning } from '../lib/cron-runs';

/** Everything cached about a service's tasks: the list, the runs, the previews. */
export const cronQueryKey = (serviceId: number) => ['cron', serviceId] as const;

/** The list in a language: the server words each schedule in the user's language. */
export const cronListQueryKey = (serviceId: number, language: string) =>
  [...cronQueryKey(serviceId), 'list', language] as const;

/** How often the list is asked again while a task runs, to show how it ended. */
const RUNNING_POLL_MS = 3000;

/** What create, save and delete answer: the service's tasks after the change. */
export type CronTasksAnswer = { tasks: CronTask[] };

/**
 * The service's tasks, the plan's limits and the time zone the schedules are read in, worded in
 * `language` (the call's own language header says it): the view's first call, which its hook, the
 * boot's prefetch and the server's first render share.
 */
export function cronListQuery(serviceId: number, language: string) {
  return apiGetQuery<CronListData>(cronListQueryKey(serviceId, language), { path: CRON_API.list(serviceId) });
}

export function useCronTasks(serviceId: number) {
  const { i18n } = useTranslation();
  return useQuery({
    ...cronListQuery(serviceId, i18n.language),
    refetchInterval: (query) => (anyTaskRunning(query.state.data?.tasks ?? []) ? RUNNING_POLL_MS : false),
  });
}

/** Puts the tasks a change answered with into the cached list, which then needs no new read. */
export function useCacheTasks(serviceId: number) {
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  return useCallback(
    (tasks: CronTask[]) =>
      queryClient.setQueryData<CronListData>(cronListQueryKey(serviceId, i18n.language), (data) =>
        data ? { ...data, tasks } : data,
      ),
    [queryClient, serviceId, i18n.language],
  );
}
