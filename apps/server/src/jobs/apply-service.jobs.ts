import { z } from 'zod';
import { SERVER_ROLE_OF_AREA } from '../modules/nodes/placement-roles.ts';
import type { JobEngine } from './job-engine.ts';
import { defineJob, type JobKind } from './job-kind.ts';
import type { ServiceArea } from './service-change-log.ts';

export const serviceToApplySchema = z.object({
  serviceId: z.number().int().positive(),
  /** The service's domain in punycode (its home's name). */
  domain: z.string().min(1).max(253),
});

export type ServiceToApply = z.infer<typeof serviceToApplySchema>;

/** What applies one area's pending changes of a service (a ServiceChangeWorker). */
export interface ServiceApplier {
  run(service: ServiceToApply): Promise<void>;
}

/**
 * A service's pending changes in one area to its server (`<area>.apply-service`, run by the
 * area's ServiceChangeWorker). One waiting and one running per service: a change made while the
 * job runs sends another, which finds it pending; one made while a job waits adds nothing (that
 * job will find it). A failed step is tried again with backoff; the round of pending changes
 * sends the job again if every retry failed.
 */
export function applyServiceJob(area: ServiceArea): JobKind<ServiceToApply> {
  return defineJob({
    name: `${area}.apply-service`,
    payload: serviceToApplySchema,
    policy: 'once',
    key: (service) => String(service.serviceId),
    retry: { limit: 12, delaySeconds: 2, backoff: true, maxDelaySeconds: 600 },
    expireSeconds: 300,
    onServer: { role: SERVER_ROLE_OF_AREA[area], serviceId: (service) => service.serviceId },
  });
}

/** Binds an area's service changes to what applies them (the composition root, the node agent). */
export async function workServiceApplying(
  jobs: JobEngine,
  kind: JobKind<ServiceToApply>,
  worker: ServiceApplier,
): Promise<void> {
  // Services are independent: a few apply side by side, each service's changes one at a time.
  await jobs.work(kind, (service) => worker.run(service), { concurrency: 4 });
}
