import type { JobKind } from './job-kind.ts';

/** What calls that only look a kind up need of it. */
export type NamedKind = Pick<JobKind<unknown>, 'name'>;

/** A job's state, named as pg-boss names them (the embedded engine uses the same words). */
export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

/** States in which a job still has work to do (or holds an ordered key, for `failed`). */
export const OPEN_STATES: readonly JobState[] = ['created', 'retry', 'active', 'failed'];

export interface JobView {
  id: string;
  kind: string;
  key: string | null;
  state: JobState;
  /** Runs so far that failed (0 while the first run has not ended badly). */
  retries: number;
  /** The last failure's message, if the job has failed at least once. */
  error: string | null;
  payload: unknown;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** When it runs next (a job waiting for its retry or for its time). */
  runAfter: Date;
}

export interface JobRun {
  id: string;
  /** 0 on the first run, then the number of failed runs before this one. */
  retries: number;
  /** Aborted when the engine stops or the run expires. */
  signal: AbortSignal;
}

export type JobHandler<P> = (payload: P, run: JobRun) => Promise<void>;

export interface SendOptions {
  /** Run no earlier than this many seconds from now. */
  afterSeconds?: number;
  /** The job's id (a UUID), when the caller records it before sending (default: a new one). */
  id?: string;
}

export interface JobCounts {
  kind: string;
  /** Jobs per state among those kept (finished ones are kept for a while, then removed). */
  states: Partial<Record<JobState, number>>;
}

/**
 * The work log: every piece of background work is a job of a typed kind, kept durably by an
 * existing engine (pg-boss on PostgreSQL; the embedded engine for one process on SQLite, see
 * docs/ARCHITECTURE.md). Kinds are declared where their module lives; handlers and schedules are
 * bound once, by the composition root, in the processes that run them.
 */
export interface JobEngine {
  readonly name: 'pg-boss' | 'embedded';
  /** Hears errors of the engine's own loops (a lost connection, a failed poll), not of jobs. */
  onError: ((error: unknown) => void) | undefined;
  /**
   * Whether this process takes jobs: started with workers, not stopped, and its last look at the
   * work log did not fail (a database gone for a moment makes it false until a look succeeds).
   */
  readonly working: boolean;
  /** Opens the engine; `work` starts taking jobs only when `workers` is true (not for the CLI). */
  start(options: { workers: boolean }): Promise<void>;
  /** Stops taking jobs and waits (a while) for the running ones. */
  stop(): Promise<void>;
  /** Runs `handler` for the kind's jobs in this process, `concurrency` at a time. */
  work<P>(kind: JobKind<P>, handler: JobHandler<P>, options?: { concurrency?: number }): Promise<void>;
  /**
   * Records a job; answers its id, or null when the kind's idempotency key already has one waiting
   * (`once`). The payload is checked against the kind's schema first.
   */
  send<P>(kind: JobKind<P>, payload: P, options?: SendOptions): Promise<string | null>;
  /** Sends a job of the kind at every occurrence of `cron` (UTC), once across all instances. */
  schedule<P>(kind: JobKind<P>, cron: string, payload: P): Promise<void>;
  unschedule(kind: NamedKind): Promise<void>;
  /** A job by its id, of the given kind (undefined: of any kind). */
  find(kind: NamedKind | undefined, id: string): Promise<JobView | undefined>;
  /** Jobs of a kind by key, newest first (a key's open jobs, what it has done lately). */
  findByKey(kind: NamedKind, key: string, limit?: number): Promise<JobView[]>;
  /** A failed job runs again at once (and so frees its key's later jobs when it succeeds). */
  retry(kind: NamedKind, id: string): Promise<boolean>;
  /** Jobs in the given states of every kind, newest first: for `panel jobs` and doctor. */
  list(options: { states: readonly JobState[]; kind?: string; limit: number }): Promise<JobView[]>;
  counts(): Promise<JobCounts[]>;
}

/** Counts per kind and state (rows of a GROUP BY kind, state) as the engines answer them. */
export function countsByKind(rows: readonly { kind: string; state: string; n: number | string }[]): JobCounts[] {
  const byKind = new Map<string, JobCounts>();
  for (const row of rows) {
    const entry = byKind.get(row.kind) ?? { kind: row.kind, states: {} };
    entry.states[row.state as JobState] = Number(row.n);
    byKind.set(row.kind, entry);
  }
  return [...byKind.values()];
}
