import type { z } from 'zod';
import type { PlacedRole } from '../modules/nodes/placement-roles.ts';

/**
 * How jobs of one kind share out:
 * - `ordered`: the jobs of one key run one at a time, in the order they were sent; a job that
 *   waits for a retry, or failed for good, holds the key's later jobs (never another key's) until
 *   it is retried or cancelled. The changes of one object.
 * - `once`: at most one job of a key waiting, one waiting for its retry and one running (as
 *   pg-boss's stately queues); sending while one waits adds nothing (the key is the idempotency
 *   key), and a key's jobs never run side by side. Scheduled rounds and "do this for that object".
 * - `standard`: every job sent runs.
 */
export type JobPolicy = 'ordered' | 'once' | 'standard';

export interface RetryPolicy {
  /** Runs after the first one; 0: a failure is final. */
  limit: number;
  /** Seconds before the first retry. */
  delaySeconds: number;
  /** Each retry waits twice as long as the one before, up to `maxDelaySeconds`. */
  backoff: boolean;
  maxDelaySeconds?: number;
}

/**
 * One kind of background work, typed once: its name (the engine's queue), what its payload is, how
 * it retries and what makes two jobs the same. The handler is bound where the services are built
 * (the composition root), so a kind can be sent from anywhere without importing what runs it.
 */
export interface JobKind<P> {
  /** The queue's name: lower case, digits, `.` and `-`. */
  name: string;
  payload: z.ZodType<P>;
  policy: JobPolicy;
  /** The order or idempotency key (required by `ordered` and `once`). */
  key?: (payload: P) => string;
  retry: RetryPolicy;
  /**
   * A run still going after this long is taken as lost (its instance died or hung): the engine
   * counts it as a failed attempt and runs it again.
   */
  expireSeconds: number;
  /**
   * Work done on one of the provider's servers (placed-jobs.ts): each job goes to the queue of
   * the server holding that part of its service (`{ role, serviceId }`), or every server has a
   * queue of its own (`'each'`, its sync). Kinds without it are the unnamed machine's.
   */
  onServer?: { role: PlacedRole; serviceId: (payload: P) => number } | 'each';
}

const NAME = /^[a-z][a-z0-9.-]{0,62}$/;

export function defineJob<P>(kind: JobKind<P>): JobKind<P> {
  if (!NAME.test(kind.name)) throw new Error(`job kind name not allowed: ${kind.name}`);
  if (kind.policy !== 'standard' && !kind.key)
    throw new Error(`job kind ${kind.name}: a ${kind.policy} kind needs a key`);
  return kind;
}

/** The key a payload is filed under, or undefined for kinds without one. */
export function jobKey<P>(kind: JobKind<P>, payload: P): string | undefined {
  return kind.key?.(payload);
}

/** Seconds before retry number `retry` (1 for the first), as both engines count them. */
export function retryDelaySeconds(policy: RetryPolicy, retry: number): number {
  const delay = policy.backoff ? policy.delaySeconds * 2 ** Math.max(0, retry - 1) : policy.delaySeconds;
  return Math.min(delay, policy.maxDelaySeconds ?? Number.POSITIVE_INFINITY);
}
