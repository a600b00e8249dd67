import type { JobEngine } from './job-engine.ts';

/** One line about the work log's health, for doctor and health: what is queued, retrying, failed. */
export async function workLogSummary(
  jobs: Pick<JobEngine, 'counts' | 'name'>,
): Promise<{ waiting: number; retrying: number; running: number; failed: number; text: string }> {
  let waiting = 0;
  let retrying = 0;
  let running = 0;
  let failed = 0;
  for (const { states } of await jobs.counts()) {
    waiting += states.created ?? 0;
    retrying += states.retry ?? 0;
    running += states.active ?? 0;
    failed += states.failed ?? 0;
  }
  const text = `${jobs.name}: ${waiting} waiting, ${running} running, ${retrying} to retry, ${failed} failed`;
  return { waiting, retrying, running, failed, text };
}
