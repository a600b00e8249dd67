import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-26: passkeys (WebAuthn credentials), several per user, each named; the
 * challenges of their ceremonies (registration and re-authentication per user, login on the
 * pending login's row).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('user_passkeys'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // base64url of the authenticator's credential id (at most 1023 bytes by the spec).
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
    // base64url of the COSE public key: public, nothing to seal.
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('sign_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('user_passkeys_user_idx').on('user_passkeys').column('user_id').execute();

  await db.schema
    .createTable('passkey_challenges')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'register' or 'reauth': one pending ceremony of each kind per user.
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('challenge', 'varchar(128)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('passkey_challenges_pk', ['user_id', 'purpose'])
    .execute();

  // A pending login may be answered with a passkey: the challenge the browser signs, and whether
  // the login started without a password (then the passkey must verify its user).
  await db.schema.alterTable('login_challenges').addColumn('passkey_challenge', 'varchar(128)').execute();
  await db.schema
    .alterTable('login_challenges')
    .addColumn('passwordless', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('login_challenges').dropColumn('passwordless').execute();
  await db.schema.alterTable('login_challenges').dropColumn('passkey_challenge').execute();
  await db.schema.dropTable('passkey_challenges').ifExists().execute();
  await db.schema.dropTable('user_passkeys').ifExists().execute();
}
