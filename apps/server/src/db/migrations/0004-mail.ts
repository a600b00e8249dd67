import { type Kysely, sql } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-22: mailboxes, aliases, WebMail tokens, and the views the mail daemons read.
 * Dovecot and Postfix query the views, never the tables, so the tables can evolve behind them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('mailboxes'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('local_part', 'varchar(64)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('quota_bytes', 'bigint', (c) => c.notNull())
    .addColumn('eliminable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('mailboxes_address_uq', ['service_id', 'local_part'])
    .execute();

  await withIdColumn(db, db.schema.createTable('mail_aliases'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('local_part', 'varchar(64)', (c) => c.notNull())
    .addColumn('targets', 'varchar(4000)', (c) => c.notNull())
    .addColumn('eliminable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('mail_aliases_address_uq', ['service_id', 'local_part'])
    .execute();

  await db.schema
    .createTable('mail_login_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('mailbox_id', 'integer', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  // Postfix: the domains it receives for, the addresses that exist, and where aliases go.
  await createMailDomainsView(db);
  await createMailUsersView(db);
  // An alias with an empty local part takes every address of the domain: Postfix's "@domain".
  await sql`CREATE VIEW mail_aliases_view AS
    SELECT a.local_part || '@' || r.reference_punycode AS source, a.targets AS destination
    FROM mail_aliases a JOIN resources r ON r.id = a.service_id
    WHERE r.has_mail = 1`.execute(db);
}

/** Exported for `mail sync`, which puts the view back as this migration made it (db/daemon-views.ts). */
export async function createMailDomainsView(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIEW mail_domains_view AS
    SELECT DISTINCT r.reference_punycode AS domain FROM resources r WHERE r.has_mail = 1`.execute(db);
}

export async function createMailUsersView(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIEW mail_users_view AS
    SELECT m.local_part || '@' || r.reference_punycode AS email,
           r.reference_punycode AS domain,
           m.local_part AS local_part,
           m.password_hash AS password,
           m.quota_bytes AS quota_bytes
    FROM mailboxes m JOIN resources r ON r.id = m.service_id
    WHERE r.has_mail = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const view of ['mail_aliases_view', 'mail_users_view', 'mail_domains_view']) {
    await sql`DROP VIEW IF EXISTS ${sql.raw(view)}`.execute(db);
  }
  for (const table of ['mail_login_tokens', 'mail_aliases', 'mailboxes'])
    await db.schema.dropTable(table).ifExists().execute();
}
