import { z } from 'zod';
import type { JobEngine, JobRun } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';

/**
 * A backup or a restore the customer started (BackupJobsService, run by BackupRunner): the job's row in
 * `backup_jobs` is what the page follows, the work log carries the work. A service's backups and
 * restores run one at a time in the order they were asked for; a run whose instance died runs
 * again (a backup repeated adds a snapshot, a restore repeated copies over what is there).
 */
export const BACKUP_RUN = defineJob({
  name: 'backups.run',
  payload: z.object({
    jobId: z.string().regex(/^[0-9a-f]{32}$/),
    serviceId: z.number().int().positive(),
  }),
  policy: 'ordered',
  key: (run) => `service-${run.serviceId}`,
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireSeconds: 6 * 3600,
});

export type BackupRun = z.infer<typeof BACKUP_RUN.payload>;

/**
 * The daily backup of every service, sent by the `backups.daily` round on the one instance that
 * took the day. Once per day; a run whose instance died runs again (a service backed up twice on
 * one day adds a snapshot the retention folds away).
 */
export const BACKUP_DAILY = defineJob({
  name: 'backups.daily-run',
  payload: z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
  policy: 'once',
  key: (run) => run.day,
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  expireSeconds: 12 * 3600,
});

export type DailyBackupRun = z.infer<typeof BACKUP_DAILY.payload>;

/** What runs backups on a node: a customer's backup or restore, and the day's run of every service. */
export interface BackupWorkers {
  run(target: BackupRun, lastTry: boolean): Promise<void>;
  daily(run: DailyBackupRun): Promise<void>;
}

/** Binds backup runs to the node's workers (the node's work, see node-agent.ts). */
export async function workBackupRuns(jobs: JobEngine, backups: BackupWorkers): Promise<void> {
  await jobs.work(BACKUP_RUN, (target, run: JobRun) => backups.run(target, run.retries >= BACKUP_RUN.retry.limit), {
    concurrency: 2,
  });
  await jobs.work(BACKUP_DAILY, (run) => backups.daily(run));
}
