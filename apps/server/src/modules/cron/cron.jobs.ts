import { z } from 'zod';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';

/**
 * One run of a scheduled task, on the service's web server (its agent takes it, as the task runs
 * as the service's user there). A task never runs beside itself: while it runs, one more run at
 * most waits for it, and further ones add nothing (a task slower than its schedule skips turns).
 */
export const RUN_CRON_TASK = defineJob({
  name: 'cron.run-task',
  payload: z.object({
    taskId: z.number().int().positive(),
    serviceId: z.number().int().positive(),
    trigger: z.enum(['schedule', 'manual']),
  }),
  policy: 'once',
  key: (run) => `task-${run.taskId}`,
  retry: { limit: 0, delaySeconds: 60, backoff: false },
  expireSeconds: 86_400,
  onServer: { role: 'web', serviceId: (run) => run.serviceId },
});

export type CronRunOrder = z.infer<typeof RUN_CRON_TASK.payload>;

/** Binds the runs to their runner (the node's workers). */
export async function workCronRuns(jobs: JobEngine, runner: { run(order: CronRunOrder): Promise<void> }) {
  await jobs.work(RUN_CRON_TASK, (order) => runner.run(order), { concurrency: 4 });
}
