import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-26: a second factor at login (TOTP), its recovery codes, the pending logins
 * between the password and the code, a brand's "two factors required", and a user's own e-mail
 * address (where security changes are reported).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // Sealed (AES-256-GCM): the server must read the secret back to check a code.
    .addColumn('secret_sealed', 'varchar(512)', (c) => c.notNull())
    // Null while the enrolment waits for its first code.
    .addColumn('enabled_at', 'bigint')
    // The last time step a code was accepted for: a code is good once.
    .addColumn('last_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('user_recovery_codes'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_recovery_codes_user_idx')
    .on('user_recovery_codes')
    .columns(['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('login_challenges')
    // sha256 of the token the client holds, like the sessions' ids.
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The brute-force window's key of the login that passed its password.
    .addColumn('account_key', 'varchar(400)', (c) => c.notNull())
    .addColumn('previous_login_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('brands')
    .addColumn('require_2fa', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('email').execute();
  await db.schema.alterTable('brands').dropColumn('require_2fa').execute();
  await db.schema.dropTable('login_challenges').ifExists().execute();
  await db.schema.dropTable('user_recovery_codes').ifExists().execute();
  await db.schema.dropTable('user_totp').ifExists().execute();
}
