import { z } from 'zod';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';

/**
 * A hosting service's pending web changes to its web server (WebApplyWorker). One waiting and one
 * running per service: a change made while the job runs sends another, which finds it pending;
 * one made while a job waits adds nothing (that job will find it). A failed step is tried again
 * with backoff; the round of pending changes sends the job again if every retry failed.
 */
export const APPLY_WEB = defineJob({
  name: 'web.apply-service',
  payload: z.object({
    serviceId: z.number().int().positive(),
    /** The service's domain in punycode (its home's name). */
    domain: z.string().min(1).max(253),
  }),
  policy: 'once',
  key: (service) => String(service.serviceId),
  retry: { limit: 12, delaySeconds: 2, backoff: true, maxDelaySeconds: 600 },
  expireSeconds: 300,
});

export type WebServiceToApply = z.infer<typeof APPLY_WEB.payload>;

/** Binds the services' web changes to what applies them (the composition root calls it). */
export async function workWebApplying(
  jobs: JobEngine,
  worker: { run(service: WebServiceToApply): Promise<void> },
): Promise<void> {
  // Services are independent: a few apply side by side, each service's changes one at a time.
  await jobs.work(APPLY_WEB, (service) => worker.run(service), { concurrency: 4 });
}
