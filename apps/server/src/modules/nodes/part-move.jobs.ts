import { z } from 'zod';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob, type JobKind } from '../../jobs/job-kind.ts';
import { queueOfServer } from '../../jobs/placed-jobs.ts';

const movedService = z.object({
  serviceId: z.number().int().positive(),
  /** The service's domain in punycode (its home's and its mail folder's name). */
  domain: z.string().min(1).max(253),
});

export type MovedService = z.infer<typeof movedService>;

/** The parts `panel node move` moves. */
export const MOVABLE_PARTS = ['web', 'mail', 'databases'] as const;
export type MovablePart = (typeof MOVABLE_PARTS)[number];

/** A server's two ends of a part's move. */
export interface PartMoveWork {
  /**
   * On the server the part leaves, as the final copy begins: whatever could still write there
   * stopped (a mail part's open sessions and cached logins). Nothing for a part with no such thing.
   */
  hold(service: MovedService): Promise<void>;
  /** The part just moved here: made ready and proven before the service's records are switched. */
  serve(service: MovedService): Promise<void>;
  /** This server's copy of a part it no longer holds, removed; nothing for a part it holds. */
  release(service: MovedService): Promise<void>;
}

export interface PartMoveJobs {
  /**
   * `<part>.serve-moved`: a part just moved to this server made ready and proven. Not retried:
   * the move waits for it and rolls back when it fails. Routed by placement, so only the server
   * now holding the part runs it.
   */
  serve: JobKind<MovedService>;
  /** The serve kind as a queue of one named server: the old one, serving again after a move rolled back. */
  serveOn(node: string): JobKind<MovedService>;
  /**
   * `<part>.release-service`: a server's copy of a part that is no longer its own (moved away,
   * or a move rolled back) removed. Sent to that server's own queue (`releaseOn`).
   */
  release: JobKind<MovedService>;
  /** The release kind as a queue of one named server, whatever the placement says. */
  releaseOn(node: string): JobKind<MovedService>;
  /** `<part>.hold-moving`: the old server's `hold`, waited for before the final copy. */
  hold: JobKind<MovedService>;
  /** The hold kind as a queue of one named server. */
  holdOn(node: string): JobKind<MovedService>;
  /**
   * Whether the old server has something to stop at the cut-over: mail (open IMAP sessions, cached
   * logins), databases (their users, locked); not a site, which its old copy serves until the
   * records switch.
   */
  holdsAtCutover: boolean;
}

function partMoveJobs(part: MovablePart): PartMoveJobs {
  const release = defineJob({
    name: `${part}.release-service`,
    payload: movedService,
    policy: 'once',
    key: (service) => String(service.serviceId),
    retry: { limit: 12, delaySeconds: 2, backoff: true, maxDelaySeconds: 600 },
    expireSeconds: 600,
    onServer: 'each',
  });
  const hold = defineJob({
    name: `${part}.hold-moving`,
    payload: movedService,
    policy: 'once',
    key: (service) => String(service.serviceId),
    retry: { limit: 0, delaySeconds: 5, backoff: false },
    expireSeconds: 300,
    onServer: 'each',
  });
  const serve = defineJob({
    name: `${part}.serve-moved`,
    payload: movedService,
    policy: 'once',
    key: (service) => String(service.serviceId),
    retry: { limit: 0, delaySeconds: 5, backoff: false },
    expireSeconds: 300,
    onServer: { role: part, serviceId: (service) => service.serviceId },
  });
  return {
    serve,
    serveOn: (node) => queueOfServer(serve, node),
    release,
    releaseOn: (node) => queueOfServer(release, node),
    hold,
    holdOn: (node) => queueOfServer(hold, node),
    holdsAtCutover: part !== 'web',
  };
}

/** Each movable part's jobs. */
export const PART_MOVE_JOBS: Record<MovablePart, PartMoveJobs> = {
  web: partMoveJobs('web'),
  mail: partMoveJobs('mail'),
  databases: partMoveJobs('databases'),
};

/** Binds each part's move kinds to the node's side of it (node-work.ts). */
export async function workPartMoves(jobs: JobEngine, work: Record<MovablePart, PartMoveWork>): Promise<void> {
  for (const part of MOVABLE_PARTS) {
    await jobs.work(PART_MOVE_JOBS[part].serve, (service) => work[part].serve(service));
    await jobs.work(PART_MOVE_JOBS[part].release, (service) => work[part].release(service));
    await jobs.work(PART_MOVE_JOBS[part].hold, (service) => work[part].hold(service));
  }
}
