import { type Insertable, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { EmbeddedJobTable } from '../db/schema.ts';
import { OPEN_STATES } from './job-engine.ts';
import type { JobPolicy } from './job-kind.ts';

/** The embedded engine's tables (SQLite only, migration 0031): its jobs and its schedules. */
export const embeddedJobsRepository = {
  /** Jobs that were running when the process stopped: they count a failed run and run again. */
  reviveRunning(db: Db, now: number) {
    return db
      .updateTable('embedded_jobs')
      .set((eb) => ({
        state: 'retry',
        retries: eb('retries', '+', 1),
        error: 'the panel stopped while it ran',
        run_after: now,
      }))
      .where('state', '=', 'active')
      .execute();
  },

  /**
   * Whether a job of the kind and key waits to run, not counting one waiting for its retry (a
   * `once` key's idempotency, as pg-boss's stately queues count it).
   */
  async waiting(db: Db, kind: string, key: string): Promise<boolean> {
    const row = await db
      .selectFrom('embedded_jobs')
      .select('id')
      .where('kind', '=', kind)
      .where('key', '=', key)
      .where('state', '=', 'created')
      .executeTakeFirst();
    return row !== undefined;
  },

  insert(db: Db, row: Insertable<EmbeddedJobTable>) {
    return db.insertInto('embedded_jobs').values(row).execute();
  },

  /** A job by its id, of `kind` when given. */
  one(db: Db, kind: string | undefined, id: string) {
    let query = db.selectFrom('embedded_jobs').selectAll().where('id', '=', id);
    if (kind !== undefined) query = query.where('kind', '=', kind);
    return query.executeTakeFirst();
  },

  byKey(db: Db, kind: string, key: string, limit: number) {
    return db
      .selectFrom('embedded_jobs')
      .selectAll()
      .where('kind', '=', kind)
      .where('key', '=', key)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
  },

  list(db: Db, states: readonly string[], kind: string | undefined, limit: number) {
    let query = db
      .selectFrom('embedded_jobs')
      .selectAll()
      .where('state', 'in', [...states])
      .orderBy('seq', 'desc')
      .limit(limit);
    if (kind) query = query.where('kind', '=', kind);
    return query.execute();
  },

  counts(db: Db) {
    return db
      .selectFrom('embedded_jobs')
      .select(['kind', 'state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['kind', 'state'])
      .orderBy('kind')
      .execute();
  },

  /** A failed job (or one waiting for its retry) runs now; true when there was one. */
  async retryNow(db: Db, kind: string, id: string, now: number): Promise<boolean> {
    const result = await db
      .updateTable('embedded_jobs')
      .set({ state: 'retry', run_after: now })
      .where('kind', '=', kind)
      .where('id', '=', id)
      .where('state', 'in', ['failed', 'retry'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /**
   * The jobs of a kind that may start now, oldest first, as its policy allows: for `ordered`, a
   * key's first open job only (an earlier one running, waiting or failed holds it); for `once`,
   * none of a key that has one running.
   */
  due(db: Db, kind: string, policy: JobPolicy, now: number, limit: number) {
    let query = db
      .selectFrom('embedded_jobs as j')
      .selectAll('j')
      .where('j.kind', '=', kind)
      // Literal states, so that SQLite walks the partial index embedded_jobs_waiting (0031).
      .where(sql<boolean>`j.state IN ('created', 'retry')`)
      .where('j.run_after', '<=', now);
    if (policy === 'ordered') {
      query = query.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('embedded_jobs as e')
              .select(sql.lit(1).as('one'))
              .whereRef('e.kind', '=', 'j.kind')
              .whereRef('e.key', '=', 'j.key')
              .whereRef('e.seq', '<', 'j.seq')
              .where('e.state', 'in', [...OPEN_STATES]),
          ),
        ),
      );
    } else if (policy === 'once') {
      query = query.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('embedded_jobs as e')
              .select(sql.lit(1).as('one'))
              .whereRef('e.kind', '=', 'j.kind')
              .whereRef('e.key', '=', 'j.key')
              .where('e.state', '=', 'active'),
          ),
        ),
      );
    }
    return query.orderBy('j.seq').limit(limit).execute();
  },

  /**
   * Takes a due job to run: true unless another engine on the database took it first, or (for a
   * `once` key) started another job of its key meanwhile. One statement, so two engines sharing
   * the file never both take one.
   */
  async claim(db: Db, job: { id: string; kind: string; key: string | null; policy: string }, now: number) {
    let update = db
      .updateTable('embedded_jobs')
      .set({ state: 'active', started_at: now })
      .where('id', '=', job.id)
      .where('state', 'in', ['created', 'retry']);
    if (job.policy === 'once' && job.key !== null) {
      const { kind, key } = job;
      update = update.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('embedded_jobs as e')
              .select(sql.lit(1).as('one'))
              .where('e.kind', '=', kind)
              .where('e.key', '=', key)
              .where('e.state', '=', 'active'),
          ),
        ),
      );
    }
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** The run's end, unless the job was taken out of `active` meanwhile (a retry by hand). */
  finished(
    db: Db,
    id: string,
    set: { state: string; retries?: number; error?: string; run_after?: number; finished_at: number | null },
  ) {
    return db.updateTable('embedded_jobs').set(set).where('id', '=', id).where('state', '=', 'active').execute();
  },

  schedules(db: Db) {
    return db.selectFrom('embedded_job_schedules').selectAll().execute();
  },

  /** A schedule made, or its expression and payload changed (its last occurrence kept). */
  putSchedule(db: Db, row: { kind: string; cron: string; payload: string; last_slot: number }) {
    return db
      .insertInto('embedded_job_schedules')
      .values(row)
      .onConflict((oc) => oc.column('kind').doUpdateSet({ cron: row.cron, payload: row.payload }))
      .execute();
  },

  removeSchedule(db: Db, kind: string) {
    return db.deleteFrom('embedded_job_schedules').where('kind', '=', kind).execute();
  },

  scheduleSent(db: Db, kind: string, slot: number) {
    return db.updateTable('embedded_job_schedules').set({ last_slot: slot }).where('kind', '=', kind).execute();
  },

  /** Finished jobs older than `before` go (a failed one too: it stops holding its key then). */
  purgeFinished(db: Db, before: number) {
    return db
      .deleteFrom('embedded_jobs')
      .where('state', 'in', ['completed', 'cancelled', 'failed'])
      .where('finished_at', '<', before)
      .execute();
  },
};
