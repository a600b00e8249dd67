import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-12-02: terminating a hosting service (the provisioning API's `terminate/`).
 *
 * - `service_terminations`: one row per terminated service, kept after its resource row is gone
 *   (so no foreign key): its domain and account, the state of the work (`running`, `done`,
 *   `failed` with its error), `removal` (JSON: what each server must remove, written in the
 *   transaction that deletes the service's rows, so a retry finishes the work without them), the
 *   last backup's snapshot and until when it is kept, and when that backup was let go.
 * - `provider_idempotency.subject`: the domain a creating call made, so that terminating it
 *   forgets the call's key (a billing system that creates the same service again after a
 *   termination sends the same key, and must get a new service, not the old answer).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_terminations')
    .addColumn('service_id', 'integer', (c) => c.primaryKey())
    .addColumn('domain', 'varchar(253)', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('step', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('removal', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('snapshot_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('keep_until', 'bigint')
    .addColumn('backup_released_at', 'bigint')
    .addColumn('error', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('service_terminations_domain_idx')
    .on('service_terminations')
    .columns(['domain', 'requested_at'])
    .execute();
  await db.schema.alterTable('provider_idempotency').addColumn('subject', 'varchar(253)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('provider_idempotency').dropColumn('subject').execute();
  await db.schema.dropTable('service_terminations').ifExists().execute();
}
