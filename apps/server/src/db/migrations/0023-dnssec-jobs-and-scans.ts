import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-11-26: DNSSEC of hosted zones and of domains hosted elsewhere.
 *
 * - `dnssec_unsign_jobs`: unsigning a hosted zone, in the safe order (the DS leaves the registry,
 *   the panel waits until no resolver can still hold it, then the keys go). The row is the job:
 *   its step and the time the wait ends survive a restart, and `lease_until` is taken with a
 *   conditional UPDATE by the one instance that advances it.
 * - `dnssec_scans`: the last CDS/CDNSKEY scan of each domain (RFC 7344/8078), shown in its card.
 * - `scheduled_leases`: one row per scheduled task (the CDS scan): the instance whose conditional
 *   UPDATE moves `lease_until` forward runs it; the others skip that round.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dnssec_unsign_jobs')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    /** running, done, failed */
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    /** removing_ds, waiting, removing_keys, done */
    .addColumn('step', 'varchar(16)', (c) => c.notNull())
    /** Epoch seconds: when the wait after the DS removal ends (0 before it starts). */
    .addColumn('wait_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('wait_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_key', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dnssec_unsign_jobs_service_idx')
    .on('dnssec_unsign_jobs')
    .columns(['service_id', 'status'])
    .execute();

  await db.schema
    .createTable('dnssec_scans')
    .addColumn('resource_id', 'integer', (c) => c.primaryKey().references('resources.id').onDelete('cascade'))
    /** unchanged, updated, deleted, no_cds, refused, failed */
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    /** Why, for refused and failed (a message key); the DS set written, for updated. */
    .addColumn('detail', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scheduled_leases')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scheduled_leases').ifExists().execute();
  await db.schema.dropTable('dnssec_scans').ifExists().execute();
  await db.schema.dropTable('dnssec_unsign_jobs').ifExists().execute();
}
