import type { JobEngine } from '../../jobs/job-engine.ts';
import type { JobKind } from '../../jobs/job-kind.ts';

const POLL_MS = 100;

/**
 * Sends a job to a server and waits for its word that it is done, within `waitMs`: a failed job
 * or no word in time is an error naming `what` (a move's or a recovery's step, which then
 * undoes or stops).
 */
export async function serverDone<P>(
  jobs: Pick<JobEngine, 'send' | 'find'>,
  queue: JobKind<P>,
  payload: P,
  waitMs: number,
  what: string,
): Promise<void> {
  const id = await jobs.send(queue, payload);
  if (!id) throw new Error(`${what}: a job of this service is waiting already`);
  const end = Date.now() + waitMs;
  for (;;) {
    const job = await jobs.find(queue, id);
    if (job?.state === 'completed') return;
    if (job?.state === 'failed') throw new Error(`${what} failed: ${job.error ?? 'failed'}`);
    if (Date.now() > end) throw new Error(`${what}: no answer within ${waitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
