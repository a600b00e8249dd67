import { type Kysely, sql } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-12-01: spam filtering.
 *
 * - `servicemail_spam`, a permission key like the others: read sees a mail service's spam
 *   settings and what was filtered, write changes them. Existing grants get their `servicemail`
 *   level.
 * - `mailbox_spam`: a mailbox's filtering (no row: off), its mode (junk or tag) and threshold.
 * - `mail_spam_senders`: a mail service's allow and block lists, one sender (an address or a
 *   domain) per row, on one list only.
 * - `plans.spam_senders`: how many entries the two lists may hold together.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('permission_grants')
    .addColumn('servicemail_spam', 'varchar(8)', (c) => c.notNull().defaultTo('disabled'))
    .execute();
  await sql`UPDATE permission_grants SET servicemail_spam = servicemail`.execute(db);

  await db.schema
    .createTable('mailbox_spam')
    .addColumn('mailbox_id', 'integer', (c) => c.primaryKey().references('mailboxes.id').onDelete('cascade'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('threshold', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('mail_spam_senders'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('list', 'varchar(8)', (c) => c.notNull())
    .addColumn('sender', 'varchar(254)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('mail_spam_senders_key', ['service_id', 'sender'])
    .execute();

  await db.schema
    .alterTable('plans')
    .addColumn('spam_senders', 'integer', (c) => c.defaultTo(200))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('spam_senders').execute();
  await db.schema.dropTable('mail_spam_senders').ifExists().execute();
  await db.schema.dropTable('mailbox_spam').ifExists().execute();
  await db.schema.alterTable('permission_grants').dropColumn('servicemail_spam').execute();
}
