import { z } from 'zod';
import type { JobEngine } from './job-engine.ts';
import { defineJob, type JobKind } from './job-kind.ts';

const NO_PAYLOAD = z.object({});
export type RoundKind = JobKind<z.infer<typeof NO_PAYLOAD>>;

/**
 * A round: scheduled work with nothing to say but "now" (purges, renewal checks, scans). At most
 * one waits and one runs, across every instance; a failed round is not retried, because the next
 * occurrence is its retry.
 */
export function defineRound(name: string, expireSeconds = 3600): RoundKind {
  return defineJob({
    name,
    payload: NO_PAYLOAD,
    policy: 'once',
    key: () => 'round',
    retry: { limit: 0, delaySeconds: 60, backoff: false },
    expireSeconds,
  });
}

/**
 * Runs `round` at every occurrence of `cron` (undefined: never, and an earlier schedule is
 * removed). `onError` hears of a failed round before the engine records it.
 */
export async function scheduleRound(
  jobs: JobEngine,
  round: RoundKind,
  cron: string | undefined,
  run: () => Promise<void>,
  onError: (error: unknown) => void,
): Promise<void> {
  if (!cron) {
    await jobs.unschedule(round);
    return;
  }
  await jobs.work(round, async () => {
    try {
      await run();
    } catch (error) {
      onError(error);
      throw error;
    }
  });
  await jobs.schedule(round, cron, {});
}
