import type { CronTask } from '@panel247/contract/cron';

/** Factories for the scheduled tasks' tests (only tests import this module, so no bundle carries it). */

/** A daily PHP task that has never run; `overrides` change any field. */
export function buildCronTask(overrides: Partial<CronTask> = {}): CronTask {
  return {
    id: 7,
    kind: 'php',
    target: 'cron/cleanup.php',
    schedule: '15 3 * * *',
    description: 'A las 03:15, todos los días',
    nextRuns: [],
    email: '',
    enabled: true,
    lastRun: null,
    ...overrides,
  };
}
