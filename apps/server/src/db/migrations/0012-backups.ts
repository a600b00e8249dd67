import { type Kysely, sql } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-26: backups of hosting services.
 *
 * - `service_backups`, a permission key like the others: read sees a service's snapshots, write
 *   runs a backup and restores. Existing grants get their `service` level, so whoever manages a
 *   service keeps managing it whole.
 * - `backup_snapshots`: what each restic snapshot of a service holds and weighs, so the Backups
 *   view lists them without asking restic (which reads the repository) on every page.
 * - `backup_jobs`: backups and restores the customer started, followed by the page; a job whose
 *   heartbeat stopped (an instance that died) can be started again.
 * - `backup_days`: the day the scheduled run was taken by one instance (its primary key makes
 *   exactly one instance win when several share the database).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('permission_grants')
    .addColumn('service_backups', 'varchar(8)', (c) => c.notNull().defaultTo('disabled'))
    .execute();
  await sql`UPDATE permission_grants SET service_backups = service`.execute(db);

  await withIdColumn(db, db.schema.createTable('backup_snapshots'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('snapshot_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    /** What the snapshot read (the service's size then) and what it added to the repository. */
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('added_bytes', 'bigint', (c) => c.notNull())
    /** JSON: { files, mailboxes: [], databases: [], dns } */
    .addColumn('holds', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('backup_snapshots_service_idx')
    .on('backup_snapshots')
    .columns(['service_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('backup_jobs')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    /** 'backup' or 'restore' */
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    /** JSON: what a restore puts back */
    .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('step', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('error_key', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('backup_jobs_service_idx').on('backup_jobs').columns(['service_id', 'status']).execute();

  await db.schema
    .createTable('backup_days')
    .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['backup_days', 'backup_jobs', 'backup_snapshots'])
    await db.schema.dropTable(table).ifExists().execute();
  await db.schema.alterTable('permission_grants').dropColumn('service_backups').execute();
}
