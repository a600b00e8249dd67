import { type Kysely, sql } from 'kysely';

/**
 * Frozen on 2026-12-01: an account's users managed by the account itself.
 *
 * - `users.manage_users`: the account-level right to manage the account's users; each
 *   account's first user (the lowest id) holds it from now on.
 * - `users.disabled_at`: a disabled user cannot log in (their sessions and tokens were ended).
 * - `users.second_factor_required`: their two-factor login was reset by a manager: they set one
 *   up again before anything else, like under a brand that requires it (cleared once they have).
 * - `user_invitations`: the one live invitation of a user without a password yet (the sha256 of
 *   the link's token), until it is used, cancelled or replaced; `cancelled_at` keeps a cancelled
 *   one's trace so the list can say so.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('manage_users', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
  await db.schema
    .alterTable('users')
    .addColumn('second_factor_required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE users SET manage_users = 1
    WHERE id IN (SELECT MIN(id) FROM users GROUP BY account_id)`.execute(db);

  await db.schema
    .createTable('user_invitations')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('cancelled_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_invitations').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('second_factor_required').execute();
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
  await db.schema.alterTable('users').dropColumn('manage_users').execute();
}
