import { z } from 'zod';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';

/**
 * A service's statistics read again from its access log, on its web server (where the log is).
 * One at a time per service: a refresh asked while one runs waits for it, and more add nothing.
 */
export const REFRESH_SITE_STATS = defineJob({
  name: 'stats.refresh-service',
  payload: z.object({ serviceId: z.number().int().positive() }),
  policy: 'once',
  key: (order) => `service-${order.serviceId}`,
  retry: { limit: 1, delaySeconds: 300, backoff: false },
  expireSeconds: 3600,
  onServer: { role: 'web', serviceId: (order) => order.serviceId },
});

/** Binds the refreshes to the node's refresher. */
export async function workStatsRefreshes(jobs: JobEngine, refresher: { refresh(serviceId: number): Promise<unknown> }) {
  await jobs.work(REFRESH_SITE_STATS, async ({ serviceId }) => void (await refresher.refresh(serviceId)), {
    concurrency: 1,
  });
}
