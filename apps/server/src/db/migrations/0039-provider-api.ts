import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-12-01: the provisioning API for the provider's systems (billing).
 *
 * - `provider_tokens`: the provider's own tokens (`panel provider token add NAME`), apart from
 *   customers' API tokens: the SHA-256 of each (the token is shown once), when it was last used,
 *   and when it was revoked (a revoked token answers 401 and stays listed).
 * - `provider_idempotency`: every creating call's answer by its token and Idempotency-Key, with
 *   the SHA-256 of what it asked, so that the same call sent twice (a retry after a lost answer)
 *   is answered again instead of done twice, and the same key with another request is refused.
 *   `state` is `running` while the first call works, then `done` with its HTTP status and answer.
 * - `resources.suspended_at`, `resources.suspended_reason`: a suspended service (not paid):
 *   its users cannot log in and are told why, its sites answer a "suspended" page, FTP and mail
 *   logins are refused; NULL when it is active.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('provider_tokens'))
    .addColumn('name', 'varchar(63)', (c) => c.notNull().unique())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createTable('provider_idempotency')
    .addColumn('token_id', 'integer', (c) => c.notNull().references('provider_tokens.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('answer', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('provider_idempotency_pk', ['token_id', 'idempotency_key'])
    .execute();
  await db.schema.alterTable('resources').addColumn('suspended_at', 'bigint').execute();
  await db.schema
    .alterTable('resources')
    .addColumn('suspended_reason', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('resources').dropColumn('suspended_reason').execute();
  await db.schema.alterTable('resources').dropColumn('suspended_at').execute();
  await db.schema.dropTable('provider_idempotency').ifExists().execute();
  await db.schema.dropTable('provider_tokens').ifExists().execute();
}
