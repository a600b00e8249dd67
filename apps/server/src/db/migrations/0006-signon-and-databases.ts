import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-22: one table of one-time sign-on tokens for every hand-off to another web
 * application (WebMail, WebFTP, phpMyAdmin), replacing the mail-only table, the MariaDB
 * databases of hosting services, and a brand's own phpMyAdmin host (like its WebMail host).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signon_tokens')
    // SHA-256 of the token: a leaked table cannot be replayed.
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.dropTable('mail_login_tokens').ifExists().execute();

  await withIdColumn(db, db.schema.createTable('hosted_databases'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    // Generated from the service (allow-listed: [a-z0-9_], at most 64 characters); unique per server.
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('db_user', 'varchar(80)', (c) => c.notNull().unique())
    /** AES-256-GCM copy for "show password" and phpMyAdmin sign-on; MariaDB keeps its own hash. */
    .addColumn('password_sealed', 'varchar(1024)', (c) => c.notNull())
    .addColumn('external_access', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('eliminable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('brands')
    .addColumn('phpmyadmin_host', 'varchar(253)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('brands').dropColumn('phpmyadmin_host').execute();
  await db.schema.dropTable('hosted_databases').ifExists().execute();
  await db.schema.dropTable('signon_tokens').ifExists().execute();
  await db.schema
    .createTable('mail_login_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('mailbox_id', 'integer', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
