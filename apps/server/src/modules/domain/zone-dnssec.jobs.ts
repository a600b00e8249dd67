import { z } from 'zod';
import type { JobEngine, JobRun } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';

/**
 * One step of a zone's unsigning (ZoneDnssecService.advance): the job's row says which, the work
 * log carries it. Waiting is not a sleeping worker: the step that starts the wait sends the next
 * step to run when it ends. One step of a job at a time (its id is the key).
 */
export const UNSIGN_ZONE_STEP = defineJob({
  name: 'dnssec.unsign-step',
  payload: z.object({
    jobId: z.string().regex(/^[0-9a-f]{32}$/),
    serviceId: z.number().int().positive(),
    zone: z.string().min(1).max(253),
    /** The end of the wait this step was sent to run after (the engine held it until then). */
    waitedUntil: z.number().int().optional(),
  }),
  policy: 'once',
  key: (step) => step.jobId,
  retry: { limit: 5, delaySeconds: 30, backoff: true, maxDelaySeconds: 1800 },
  expireSeconds: 600,
});

export type UnsignStep = z.infer<typeof UNSIGN_ZONE_STEP.payload>;

/** Binds the unsigning steps to the service that runs them (the composition root calls it). */
export async function workZoneUnsigning(
  jobs: JobEngine,
  zones: { advance(step: UnsignStep, run: JobRun, lastTry: boolean): Promise<void> },
): Promise<void> {
  await jobs.work(UNSIGN_ZONE_STEP, (step, run) =>
    zones.advance(step, run, run.retries >= UNSIGN_ZONE_STEP.retry.limit),
  );
}
