import { type Job, PgBoss, type QueuePolicy } from 'pg-boss';
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
import { type JobKind, type JobPolicy, jobKey } from './job-kind.ts';

const POLICIES: Record<JobPolicy, QueuePolicy> = {
  ordered: 'key_strict_fifo',
  once: 'stately',
  standard: 'standard',
};

/** How long a failure pg-boss reports in its own loops makes the engine count as not working. */
const ERROR_WINDOW_MS = 10_000;

/** The schema pg-boss keeps its tables in, beside the panel's own. */
export const PG_BOSS_SCHEMA = 'pgboss';

export interface PgBossEngineOptions {
  connectionString: string;
  /** Connections of its own (the LISTEN connection comes on top). */
  poolSize?: number;
  /** How often a running job says it is alive; one silent for this long is taken as dead. */
  heartbeatSeconds?: number;
  /** How often an instance looks for dead jobs and expired ones (pg-boss's supervision). */
  superviseSeconds?: number;
  /** How long finished jobs are kept (for their status and `panel jobs`). */
  keepFinishedDays?: number;
}

/**
 * The work log on PostgreSQL: pg-boss 12 (SKIP LOCKED claims, LISTEN/NOTIFY wake-ups, schedules
 * that fire once across instances, heartbeats that hand a dead instance's job to another).
 * `ordered` kinds are key_strict_fifo queues: pg-boss itself holds a key's later jobs while one is
 * running, waiting for its retry or failed.
 */
export class PgBossEngine implements JobEngine {
  readonly name = 'pg-boss' as const;
  private boss: PgBoss | undefined;
  private withWorkers = false;
  /** When pg-boss last reported a failure of its own loops (a poll, its connection). */
  private lastErrorAt: number | undefined;
  private readonly queues = new Map<string, Promise<void>>();
  /** This process's workers per kind: a job sent here wakes them at once (no NOTIFY round trip). */
  private readonly workers = new Map<string, string[]>();

  constructor(private readonly options: PgBossEngineOptions) {}

  async start({ workers }: { workers: boolean }): Promise<void> {
    const supervise = this.options.superviseSeconds ?? 60;
    const boss = new PgBoss({
      connectionString: this.options.connectionString,
      schema: PG_BOSS_SCHEMA,
      max: this.options.poolSize ?? 4,
      application_name: 'panel247-jobs',
      useListenNotify: workers,
      // The CLI only reads and sends: supervision and schedules are the servers' work.
      supervise: workers,
      schedule: workers,
      superviseIntervalSeconds: supervise,
      monitorIntervalSeconds: supervise,
      // How soon a backlog's size is known to the workers (their burst mode reads it).
      queueCacheIntervalSeconds: Math.min(supervise, 10),
      maintenanceIntervalSeconds: Math.max(supervise, 60),
      persistWarnings: false,
    });
    boss.on('error', (error) => {
      this.lastErrorAt = Date.now();
      this.onError?.(error);
    });
    await boss.start();
    this.boss = boss;
    this.withWorkers = workers;
  }

  /**
   * Started with workers, and pg-boss has reported no failure of its loops for a while: pg-boss
   * says when a poll fails, not when one succeeds, so an error counts for ERROR_WINDOW_MS (a few
   * of its 2 s polls).
   */
  get working(): boolean {
    if (!this.boss || !this.withWorkers) return false;
    return this.lastErrorAt === undefined || Date.now() - this.lastErrorAt > ERROR_WINDOW_MS;
  }

  /** Errors pg-boss meets in its own loops (a lost connection it will retry, a failed poll). */
  onError: ((error: unknown) => void) | undefined;

  async stop(): Promise<void> {
    const boss = this.boss;
    this.boss = undefined;
    this.withWorkers = false;
    this.queues.clear();
    this.workers.clear();
    await boss?.stop({ graceful: true, timeout: 10_000, close: true });
  }

  async work<P>(kind: JobKind<P>, handler: JobHandler<P>, options: { concurrency?: number } = {}): Promise<void> {
    const boss = await this.queue(kind);
    const concurrency = options.concurrency ?? 1;
    // `concurrency` workers, each taking one job at a time: a job that runs long (a slow DNS
    // server, a large backup) holds only its own worker, never jobs fetched beside it. After a job
    // the worker looks again at once: it may have freed its key's next one, which no NOTIFY
    // announces.
    let workerId = '';
    workerId = await boss.work(
      kind.name,
      {
        batchSize: 1,
        localConcurrency: concurrency,
        perJobResults: true,
        // A new job wakes the worker through LISTEN/NOTIFY; a retry coming due does not, so the
        // worker still looks every 2 s (pg-boss would wait 30 s with notify on).
        pollingIntervalSeconds: 2,
        notifyPollingIntervalSeconds: 2,
      },
      async (jobs: Job<unknown>[]) => {
        const results = await Promise.all(
          jobs.map(async (job) => {
            try {
              await handler(kind.payload.parse(job.data), { id: job.id, retries: job.retryCount, signal: job.signal });
              return { id: job.id, status: 'completed' as const };
            } catch (error) {
              const message = error instanceof Error ? error.message : String(error);
              return { id: job.id, status: 'failed' as const, output: { message } };
            }
          }),
        );
        boss.notifyWorker(workerId);
        return results;
      },
    );
    this.workers.set(kind.name, [...(this.workers.get(kind.name) ?? []), workerId]);
  }

  async send<P>(kind: JobKind<P>, payload: P, options: SendOptions = {}): Promise<string | null> {
    const boss = await this.queue(kind);
    const data = kind.payload.parse(payload) as object;
    const id = await boss.send(kind.name, data, {
      singletonKey: jobKey(kind, payload),
      ...(options.afterSeconds ? { startAfter: options.afterSeconds } : {}),
      ...(options.id ? { id: options.id } : {}),
    });
    if (id && !options.afterSeconds) for (const worker of this.workers.get(kind.name) ?? []) boss.notifyWorker(worker);
    return id;
  }

  async schedule<P>(kind: JobKind<P>, cron: string, payload: P): Promise<void> {
    const boss = await this.queue(kind);
    await boss.schedule(kind.name, cron, kind.payload.parse(payload) as object, {
      tz: 'UTC',
      singletonKey: jobKey(kind, payload),
    });
  }

  async unschedule(kind: NamedKind): Promise<void> {
    const boss = this.started();
    if (await boss.getQueue(kind.name)) await boss.unschedule(kind.name);
  }

  async find(kind: NamedKind | undefined, id: string): Promise<JobView | undefined> {
    const [job] = kind
      ? await this.select('WHERE id = $1::uuid AND name = $2', [id, kind.name], 1)
      : await this.select('WHERE id = $1::uuid', [id], 1);
    return job;
  }

  async findByKey(kind: NamedKind, key: string, limit = 20): Promise<JobView[]> {
    return this.select(`WHERE name = $1 AND singleton_key = $2`, [kind.name, key], limit);
  }

  async retry(kind: NamedKind, id: string): Promise<boolean> {
    const boss = this.started();
    if (!(await boss.getQueue(kind.name))) return false;
    // Typed as an empty interface, the answer carries the count of jobs it moved.
    const answer = (await boss.retry(kind.name, id)) as { affected?: number };
    return (answer.affected ?? 0) > 0;
  }

  async list(options: { states: readonly JobState[]; kind?: string; limit: number }): Promise<JobView[]> {
    return options.kind
      ? this.select('WHERE state::text = ANY($1::text[]) AND name = $2', [options.states, options.kind], options.limit)
      : this.select('WHERE state::text = ANY($1::text[])', [options.states], options.limit);
  }

  async counts(): Promise<JobCounts[]> {
    const { rows } = await this.started()
      .getDb()
      .executeSql(
        `SELECT name AS kind, state::text AS state, count(*)::int AS n FROM ${PG_BOSS_SCHEMA}.job GROUP BY name, state ORDER BY name`,
      );
    return countsByKind(rows as { kind: string; state: JobState; n: number }[]);
  }

  /**
   * Reads pg-boss's job table directly (one query, whatever the queue, where its API answers per
   * queue): pg-boss documents its tables for SQL access, and these reads take no lock.
   */
  private async select(where: string, values: unknown[], limit: number): Promise<JobView[]> {
    const { rows } = await this.started()
      .getDb()
      .executeSql(
        `SELECT id, name, singleton_key, state::text AS state, retry_count, output, data, created_on,
                started_on, completed_on, start_after
         FROM ${PG_BOSS_SCHEMA}.job ${where} ORDER BY created_on DESC, id DESC LIMIT ${Math.trunc(limit)}`,
        values,
      );
    return (rows as JobRow[]).map((row) => ({
      id: row.id,
      kind: row.name,
      key: row.singleton_key,
      state: row.state,
      retries: row.retry_count,
      error: errorOf(row.output, row.retry_count, row.state),
      payload: row.data,
      createdAt: row.created_on,
      startedAt: row.started_on,
      finishedAt: row.completed_on,
      runAfter: row.start_after,
    }));
  }

  /** Makes the kind's queue once per process (createQueue leaves an existing one as it is). */
  private async queue<P>(kind: JobKind<P>): Promise<PgBoss> {
    const boss = this.started();
    let made = this.queues.get(kind.name);
    if (!made) {
      const keep = (this.options.keepFinishedDays ?? 7) * 86_400;
      const settings = {
        retryLimit: kind.retry.limit,
        retryDelay: kind.retry.delaySeconds,
        retryBackoff: kind.retry.backoff,
        expireInSeconds: kind.expireSeconds,
        deleteAfterSeconds: keep,
        heartbeatSeconds: this.options.heartbeatSeconds ?? 30,
      };
      made = boss
        .createQueue(kind.name, {
          policy: POLICIES[kind.policy],
          ...settings,
          ...(kind.retry.maxDelaySeconds ? { retryDelayMax: kind.retry.maxDelaySeconds } : {}),
        })
        // A queue made by an earlier version keeps its policy; its retries follow the kind's.
        .then(() => boss.updateQueue(kind.name, { ...settings, notify: true }));
      this.queues.set(kind.name, made);
      made.catch(() => this.queues.delete(kind.name));
    }
    await made;
    return boss;
  }

  private started(): PgBoss {
    if (!this.boss) throw new Error('the job engine is not started');
    return this.boss;
  }
}

interface JobRow {
  id: string;
  name: string;
  singleton_key: string | null;
  state: JobState;
  retry_count: number;
  output: unknown;
  data: unknown;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
  start_after: Date;
}

/** pg-boss keeps a failed run's error (serialized) as the job's output. */
function errorOf(output: unknown, retries: number, state: JobState): string | null {
  if (state === 'completed' || (retries === 0 && state !== 'failed')) return null;
  if (output && typeof output === 'object' && 'message' in output) return String(output.message);
  return output ? String(output) : null;
}
