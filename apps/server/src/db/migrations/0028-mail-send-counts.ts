import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-11-29: how much each mailbox login sent in its current hour (`mail_send_counts`),
 * read and written by the Postfix policy service that limits sending (modules/mail-sending). One
 * row per login (the SASL user name, which is the mailbox address): the window's start, the
 * recipients counted in it, and whether its first refusal was already written to the activity log
 * (one entry per mailbox and window). Kept by login rather than by mailbox id so that the policy
 * check is one upsert on the key Postfix hands over; rows of quiet logins are purged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_send_counts')
    .addColumn('login', 'varchar(320)', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('sent', 'integer', (c) => c.notNull())
    .addColumn('alerted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('mail_send_counts_window_idx').on('mail_send_counts').column('window_start').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_send_counts').ifExists().execute();
}
