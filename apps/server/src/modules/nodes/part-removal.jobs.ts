import { z } from 'zod';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob, type JobKind } from '../../jobs/job-kind.ts';
import { MOVABLE_PARTS, type MovablePart } from './part-move.jobs.ts';

/**
 * What a server removes of a terminated service, carried whole in the job: the service's rows are
 * gone by the time it runs (a retry, or a server that was away, still knows what to remove).
 */
export const serviceRemoval = z.object({
  serviceId: z.number().int().positive(),
  /** The service's domain in punycode (its home's and its mail folder's name). */
  domain: z.string().min(1).max(253),
  /** Web: who its home's files belong to (undefined: the panel's own rights, the embedded users driver). */
  owner: z.object({ uid: z.number().int().nonnegative(), gid: z.number().int().nonnegative() }).optional(),
  /** Web: the service's system account, removed last (null: it had none). */
  user: z
    .object({ name: z.string(), uid: z.number().int().nonnegative(), gid: z.number().int().nonnegative() })
    .nullable(),
  /** Mail: its mailboxes, whose open sessions and cached logins the mail server drops. */
  mailboxes: z.array(z.string().max(64)),
  /** Databases: what to drop. */
  databases: z.array(z.object({ name: z.string().max(64), user: z.string().max(80) })),
});

export type ServiceRemoval = z.infer<typeof serviceRemoval>;

/** A server's side of a termination: its copy of the part removed, from every daemon and disk. */
export interface PartRemovalWork {
  remove(removal: ServiceRemoval): Promise<void>;
}

/**
 * `<part>.remove-service`, sent to the queue of the server that held the part (`onNode`). Each
 * removal is idempotent, so a job sent twice (a termination's retry) removes once; a server that is
 * away removes when it is back.
 */
export const PART_REMOVAL_JOBS: Record<MovablePart, JobKind<ServiceRemoval>> = Object.fromEntries(
  MOVABLE_PARTS.map((part) => [
    part,
    defineJob({
      name: `${part}.remove-service`,
      payload: serviceRemoval,
      policy: 'standard',
      retry: { limit: 12, delaySeconds: 2, backoff: true, maxDelaySeconds: 600 },
      expireSeconds: 600,
      onServer: 'each',
    }),
  ]),
) as Record<MovablePart, JobKind<ServiceRemoval>>;

/** Binds each part's removal to the node's side of it (node-work.ts). */
export async function workPartRemovals(jobs: JobEngine, work: Record<MovablePart, PartRemovalWork>): Promise<void> {
  for (const part of MOVABLE_PARTS) await jobs.work(PART_REMOVAL_JOBS[part], (removal) => work[part].remove(removal));
}
