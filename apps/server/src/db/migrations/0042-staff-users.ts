import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-12-02: the provider's staff, who use the provider's console.
 *
 * - `staff_users`: users of their own, never a customer's (no account, no brand): a password
 *   hash, and a second factor they must set up at their first sign-in (`totp_sealed`, the TOTP
 *   secret sealed with the panel's key; `totp_pending_sealed` while it is being set up;
 *   `totp_last_step`, so an accepted code is never accepted again).
 * - `staff_sessions`: their sessions (the sha256 of the cookie's token), apart from customers'.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('staff_users'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('totp_sealed', 'text')
    .addColumn('totp_pending_sealed', 'text')
    .addColumn('totp_last_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint')
    .execute();
  await db.schema
    .createTable('staff_sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff_users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(45)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('staff_sessions_staff_idx').on('staff_sessions').column('staff_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('staff_sessions').ifExists().execute();
  await db.schema.dropTable('staff_users').ifExists().execute();
}
