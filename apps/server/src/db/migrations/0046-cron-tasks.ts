import { type Kysely, sql } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-12-01: scheduled tasks (cron) of hosting services.
 *
 * - `service_cron`, a permission key like the others: read sees a service's tasks and their runs,
 *   write adds, changes, removes and runs them. Existing grants get their `service` level, so
 *   whoever manages a service keeps managing it whole.
 * - `cron_tasks`: per service, a PHP script of its home (`kind` php, `target` the path relative to
 *   the home) or a URL of one of its sites (`kind` url), its schedule (five cron fields), the
 *   address its output is mailed to ('' : none), whether it is on, and the minute it was last
 *   sent to run (`due_at`: the round sends each due minute once, across instances).
 * - `cron_runs`: each run's start and end, exit status, outcome and output (cut), what started
 *   it, and whether its output was mailed; the newest few per task are kept.
 * - `plans`: the number of tasks a service may have and the shortest interval between two runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('permission_grants')
    .addColumn('service_cron', 'varchar(8)', (c) => c.notNull().defaultTo('disabled'))
    .execute();
  await sql`UPDATE permission_grants SET service_cron = service`.execute(db);

  await withIdColumn(db, db.schema.createTable('cron_tasks'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('target', 'varchar(2048)', (c) => c.notNull())
    .addColumn('schedule', 'varchar(200)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('due_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cron_tasks_service_idx').on('cron_tasks').columns(['service_id', 'id']).execute();

  await withIdColumn(db, db.schema.createTable('cron_runs'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('cron_tasks.id').onDelete('cascade'))
    .addColumn('trigger', 'varchar(16)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('exit_code', 'integer')
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('output', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mailed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('cron_runs_task_idx').on('cron_runs').columns(['task_id', 'id']).execute();

  await db.schema
    .alterTable('plans')
    .addColumn('cron_tasks', 'integer', (c) => c.defaultTo(10))
    .execute();
  await db.schema
    .alterTable('plans')
    .addColumn('cron_min_interval_minutes', 'integer', (c) => c.notNull().defaultTo(5))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cron_runs').ifExists().execute();
  await db.schema.dropTable('cron_tasks').ifExists().execute();
  await db.schema.alterTable('plans').dropColumn('cron_min_interval_minutes').execute();
  await db.schema.alterTable('plans').dropColumn('cron_tasks').execute();
  await db.schema.alterTable('permission_grants').dropColumn('service_cron').execute();
}
