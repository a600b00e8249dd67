import { z } from 'zod';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob, type JobKind } from '../../jobs/job-kind.ts';
import { onNode } from '../../jobs/placed-jobs.ts';

const movedService = z.object({
  serviceId: z.number().int().positive(),
  /** The service's domain in punycode (its home's name). */
  domain: z.string().min(1).max(253),
});

export type MovedService = z.infer<typeof movedService>;

/**
 * A service whose web part was just moved to this server (`panel node move`): its account made
 * here, every site's configuration written, and each site proven answered by this server's nginx
 * before the service's records are switched. Not retried: the move waits for it and rolls back
 * when it fails. Routed by placement, so only the server now holding the service runs it.
 */
export const SERVE_MOVED_SERVICE = defineJob({
  name: 'web.serve-moved',
  payload: movedService,
  policy: 'once',
  key: (service) => String(service.serviceId),
  retry: { limit: 0, delaySeconds: 5, backoff: false },
  expireSeconds: 300,
  onServer: { role: 'web', serviceId: (service) => service.serviceId },
});

/**
 * A server's copy of a service that is no longer its own (moved away, or a move rolled back):
 * its sites' configuration removed and its home emptied. Sent to that server's own queue
 * (`releaseOn`); it does nothing for a service the server still holds.
 */
export const RELEASE_SERVICE = defineJob({
  name: 'web.release-service',
  payload: movedService,
  policy: 'once',
  key: (service) => String(service.serviceId),
  retry: { limit: 12, delaySeconds: 2, backoff: true, maxDelaySeconds: 600 },
  expireSeconds: 600,
  onServer: 'each',
});

/** The release kind as a queue of one named server, whatever the placement says. */
export function releaseOn(node: string): JobKind<MovedService> {
  return { ...onNode(RELEASE_SERVICE, node), onServer: undefined };
}

export interface WebMoveWork {
  serve(service: MovedService): Promise<void>;
  release(service: MovedService): Promise<void>;
}

/** Binds the move kinds to the node's web side (node-work.ts). */
export async function workWebMoves(jobs: JobEngine, work: WebMoveWork): Promise<void> {
  await jobs.work(SERVE_MOVED_SERVICE, (service) => work.serve(service));
  await jobs.work(RELEASE_SERVICE, (service) => work.release(service));
}
