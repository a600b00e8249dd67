import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-29: the embedded job engine's work log (SQLite, one process; see
 * jobs/embedded-engine.ts). On PostgreSQL pg-boss keeps the jobs in its own schema, so these
 * tables are made on SQLite only.
 *
 * - `embedded_jobs`: one row per job; `seq` is the order jobs were sent in (a key's jobs run in
 *   it), `state` uses pg-boss's names, times are epoch milliseconds.
 * - `embedded_job_schedules`: one row per scheduled kind; `last_slot` is the occurrence last sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema
    .createTable('embedded_jobs')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text')
    .addColumn('policy', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('retries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('run_after', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('embedded_jobs_due')
    .on('embedded_jobs')
    .columns(['kind', 'state', 'run_after'])
    .execute();
  await db.schema.createIndex('embedded_jobs_key').on('embedded_jobs').columns(['kind', 'key', 'seq']).execute();
  // The jobs waiting to run, in the order sent: the engine walks it and stops at its batch (a
  // partial index, used when the query names the two states as literals: 7 ms to 0.01 ms per
  // pass with 10,000 waiting).
  await sql`CREATE INDEX embedded_jobs_waiting ON embedded_jobs (kind, seq) WHERE state IN ('created', 'retry')`.execute(
    db,
  );
  await db.schema
    .createTable('embedded_job_schedules')
    .addColumn('kind', 'text', (c) => c.primaryKey())
    .addColumn('cron', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('last_slot', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('embedded_job_schedules').ifExists().execute();
  await db.schema.dropTable('embedded_jobs').ifExists().execute();
}
