import { z } from 'zod';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';

/**
 * A zone's pending changes to its DNS server (ZonePublishWorker). One waiting and one running per
 * zone: a change made while the job runs sends another, which finds it pending; one made while a
 * job waits adds nothing (that job will find it). A server down is tried again with backoff.
 */
export const PUBLISH_ZONE = defineJob({
  name: 'dns.publish-zone',
  payload: z.object({
    serviceId: z.number().int().positive(),
    /** ASCII zone name without the trailing dot. */
    zone: z.string().min(1).max(253),
  }),
  policy: 'once',
  key: (zone) => String(zone.serviceId),
  retry: { limit: 12, delaySeconds: 2, backoff: true, maxDelaySeconds: 600 },
  expireSeconds: 300,
});

export type ZoneToPublish = z.infer<typeof PUBLISH_ZONE.payload>;

/**
 * A later check of a zone the server may write late (after a change it did not confirm): it sends
 * the zone's publishing job when its time comes. A kind of its own, so that a check waiting for
 * its time never stands in for a change's job, which must run now.
 */
export const CHECK_ZONE = defineJob({
  name: 'dns.check-zone',
  payload: PUBLISH_ZONE.payload,
  policy: 'once',
  key: (zone) => String(zone.serviceId),
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  expireSeconds: 60,
});

/** Binds the zones' publishing to what runs it (the composition root calls it). */
export async function workZonePublishing(
  jobs: JobEngine,
  worker: { run(zone: { serviceId: number; name: string }): Promise<void> },
): Promise<void> {
  // Zones are independent: a few publish side by side, each zone's changes still one at a time.
  await jobs.work(PUBLISH_ZONE, (zone) => worker.run({ serviceId: zone.serviceId, name: zone.zone }), {
    concurrency: 4,
  });
  await jobs.work(CHECK_ZONE, async (zone) => void (await jobs.send(PUBLISH_ZONE, zone)));
}
