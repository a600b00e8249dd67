import { z } from 'zod';
import type { JobEngine, JobRun } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';

/**
 * A backup or a restore the customer started (BackupJobsService.run): the job's row in
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

/** Binds backup runs to the service that does them (the composition root calls it). */
export async function workBackupRuns(
  jobs: JobEngine,
  backups: { run(target: BackupRun, lastTry: boolean): Promise<void> },
): Promise<void> {
  await jobs.work(BACKUP_RUN, (target, run: JobRun) => backups.run(target, run.retries >= BACKUP_RUN.retry.limit), {
    concurrency: 2,
  });
}
