import { randomUUID } from 'node:crypto';
import { CronExpressionParser } from 'cron-parser';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { EmbeddedJobTable } from '../db/schema.ts';
import { embeddedJobsRepository as repository } from './embedded-jobs.repository.ts';
import {
  countsByKind,
  type JobCounts,
  type JobEngine,
  type JobHandler,
  type JobState,
  type JobView,
  type NamedKind,
  type SendOptions,
} from './job-engine.ts';
import { type JobKind, jobKey, retryDelaySeconds } from './job-kind.ts';

type Row = Selectable<EmbeddedJobTable>;

interface Worker {
  kind: JobKind<unknown>;
  handler: JobHandler<unknown>;
  concurrency: number;
  running: number;
}

/** How often the engine looks for jobs whose time came (a send wakes it at once). */
const POLL_MS = 1000;
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * The work log of the embedded default: one panel process on SQLite. It runs the same job kinds,
 * handlers and schedules as pg-boss does on PostgreSQL, with the same states and the same rules
 * (a key's `ordered` jobs in order, held by one that waits for its retry or failed; one waiting
 * job per `once` key; retries with backoff; a schedule's occurrence sent once). It needs no
 * claims between processes because there is one: SQLite is the embedded database of one panel
 * process, and several instances need PostgreSQL (and so pg-boss) anyway. A job that was running
 * when the process stopped runs again at the next start.
 */
export class EmbeddedEngine implements JobEngine {
  readonly name = 'embedded' as const;
  private readonly workers = new Map<string, Worker>();
  private readonly kinds = new Map<string, JobKind<unknown>>();
  private readonly runs = new Set<Promise<void>>();
  private readonly aborts = new Set<AbortController>();
  private started = false;
  private lastPassFailed = false;
  private timer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private again = false;
  private lastPurge = 0;

  constructor(
    private readonly db: Db,
    private readonly options: { keepFinishedDays?: number; now?: () => number } = {},
  ) {}

  /** Errors of the engine's own loop (a failed read); a handler's failure is its job's. */
  onError: ((error: unknown) => void) | undefined;

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  get working(): boolean {
    return this.started && !this.lastPassFailed;
  }

  async start({ workers }: { workers: boolean }): Promise<void> {
    if (!workers) return;
    // A job running when the process stopped died with it: it counts as a failed run and runs again.
    await repository.reviveRunning(this.db, this.now());
    this.started = true;
    this.wake();
  }

  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    await this.pumping;
    const waited = Promise.allSettled([...this.runs]);
    const limit = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
    await Promise.race([waited, limit]);
    for (const abort of this.aborts) abort.abort(new Error('the job engine stopped'));
  }

  async work<P>(kind: JobKind<P>, handler: JobHandler<P>, options: { concurrency?: number } = {}): Promise<void> {
    const known = kind as JobKind<unknown>;
    this.kinds.set(kind.name, known);
    this.workers.set(kind.name, {
      kind: known,
      handler: handler as JobHandler<unknown>,
      concurrency: options.concurrency ?? 1,
      running: 0,
    });
    this.wake();
  }

  async send<P>(kind: JobKind<P>, payload: P, options: SendOptions = {}): Promise<string | null> {
    const data = kind.payload.parse(payload);
    const key = jobKey(kind, payload) ?? null;
    this.kinds.set(kind.name, kind as JobKind<unknown>);
    if (kind.policy === 'once' && key !== null && (await repository.waiting(this.db, kind.name, key))) return null;
    const id = options.id ?? randomUUID();
    const now = this.now();
    await repository.insert(this.db, {
      id,
      kind: kind.name,
      key,
      policy: kind.policy,
      payload: JSON.stringify(data),
      state: 'created',
      error: null,
      run_after: now + (options.afterSeconds ?? 0) * 1000,
      created_at: now,
      started_at: null,
      finished_at: null,
    });
    this.wake();
    return id;
  }

  async schedule<P>(kind: JobKind<P>, cron: string, payload: P): Promise<void> {
    CronExpressionParser.parse(cron, { tz: 'UTC' });
    this.kinds.set(kind.name, kind as JobKind<unknown>);
    const data = JSON.stringify(kind.payload.parse(payload));
    // A new schedule starts from now: it owes nothing for occurrences before it existed.
    await repository.putSchedule(this.db, { kind: kind.name, cron, payload: data, last_slot: this.now() });
    this.wake();
  }

  async unschedule(kind: NamedKind): Promise<void> {
    await repository.removeSchedule(this.db, kind.name);
  }

  async find(kind: NamedKind | undefined, id: string): Promise<JobView | undefined> {
    const row = await repository.one(this.db, kind?.name, id);
    return row ? view(row) : undefined;
  }

  async findByKey(kind: NamedKind, key: string, limit = 20): Promise<JobView[]> {
    return (await repository.byKey(this.db, kind.name, key, limit)).map(view);
  }

  async retry(kind: NamedKind, id: string): Promise<boolean> {
    const retried = await repository.retryNow(this.db, kind.name, id, this.now());
    this.wake();
    return retried;
  }

  async list(options: { states: readonly JobState[]; kind?: string; limit: number }): Promise<JobView[]> {
    return (await repository.list(this.db, options.states, options.kind, options.limit)).map(view);
  }

  async counts(): Promise<JobCounts[]> {
    return countsByKind(await repository.counts(this.db));
  }

  /** Runs a pass now, or right after the one going (passes never overlap). */
  private wake(): void {
    if (!this.started) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.pumping = this.pass()
      .then(
        () => {
          this.lastPassFailed = false;
        },
        (error) => {
          this.lastPassFailed = true;
          this.onError?.(error);
        },
      )
      .finally(() => {
        this.pumping = undefined;
        if (!this.started) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else this.timer = setTimeout(() => this.wake(), POLL_MS).unref();
      });
  }

  private async pass(): Promise<void> {
    await this.sendDueSchedules();
    for (const worker of this.workers.values()) {
      const free = worker.concurrency - worker.running;
      if (free <= 0) continue;
      const due = await repository.due(this.db, worker.kind.name, worker.kind.policy, this.now(), free);
      // Claimed one by one: a `once` key may have a job waiting and one due for its retry (one of
      // them runs), and another engine on the same file may take a job first.
      for (const row of due) if (await repository.claim(this.db, row, this.now())) this.run(worker, row);
    }
    if (this.now() - this.lastPurge > PURGE_EVERY_MS) await this.purgeFinished();
  }

  private run(worker: Worker, row: Row): void {
    worker.running += 1;
    const abort = new AbortController();
    this.aborts.add(abort);
    const done = this.runOnce(worker, row, abort).finally(() => {
      worker.running -= 1;
      this.aborts.delete(abort);
      this.runs.delete(done);
      this.wake();
    });
    this.runs.add(done);
  }

  /** Runs a job this engine claimed. */
  private async runOnce(worker: Worker, row: Row, abort: AbortController): Promise<void> {
    const { kind } = worker;
    let expired: NodeJS.Timeout | undefined;
    try {
      const payload = kind.payload.parse(JSON.parse(row.payload));
      await Promise.race([
        worker.handler(payload, { id: row.id, retries: row.retries, signal: abort.signal }),
        new Promise((_, reject) => {
          expired = setTimeout(() => {
            abort.abort();
            reject(new Error(`the job ran longer than ${kind.expireSeconds} s`));
          }, kind.expireSeconds * 1000);
          expired.unref();
        }),
      ]);
      await repository.finished(this.db, row.id, { state: 'completed', finished_at: this.now() });
    } catch (error) {
      const retries = row.retries + 1;
      const final = retries > kind.retry.limit;
      await repository.finished(this.db, row.id, {
        state: final ? 'failed' : 'retry',
        retries,
        error: error instanceof Error ? error.message : String(error),
        run_after: this.now() + (final ? 0 : retryDelaySeconds(kind.retry, retries) * 1000),
        finished_at: final ? this.now() : null,
      });
    } finally {
      clearTimeout(expired);
    }
  }

  /** Sends each schedule's latest occurrence not sent yet (one job for a gap, as pg-boss does). */
  private async sendDueSchedules(): Promise<void> {
    const now = this.now();
    const schedules = await repository.schedules(this.db);
    for (const schedule of schedules) {
      const kind = this.kinds.get(schedule.kind);
      if (!kind) continue;
      const slot = CronExpressionParser.parse(schedule.cron, { tz: 'UTC', currentDate: new Date(now + 1) })
        .prev()
        .getTime();
      if (slot <= schedule.last_slot) continue;
      await repository.scheduleSent(this.db, schedule.kind, slot);
      await this.send(kind, JSON.parse(schedule.payload));
    }
  }

  private async purgeFinished(): Promise<void> {
    this.lastPurge = this.now();
    const before = this.now() - (this.options.keepFinishedDays ?? 7) * 86_400_000;
    await repository.purgeFinished(this.db, before);
  }
}

function view(row: Row): JobView {
  const at = (ms: number | null) => (ms === null ? null : new Date(Number(ms)));
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    state: row.state as JobState,
    retries: Number(row.retries),
    error: row.error,
    payload: JSON.parse(row.payload),
    createdAt: new Date(Number(row.created_at)),
    startedAt: at(row.started_at),
    finishedAt: at(row.finished_at),
    runAfter: new Date(Number(row.run_after)),
  };
}
