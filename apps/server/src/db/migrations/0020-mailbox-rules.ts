import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-11-26: a mailbox's autoresponder and forwarding (`mailbox_rules`), one row per
 * mailbox that has ever had them. The panel keeps the settings; the mail driver turns them into
 * the mailbox's Sieve script, which Dovecot's LMTP (Pigeonhole) runs at each delivery.
 * Dates are 'YYYY-MM-DD' ('' for none); targets are comma-separated like an alias's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mailbox_rules')
    .addColumn('mailbox_id', 'integer', (c) => c.primaryKey().references('mailboxes.id').onDelete('cascade'))
    .addColumn('autoreply', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('subject', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_date', 'varchar(10)', (c) => c.notNull().defaultTo(''))
    .addColumn('end_date', 'varchar(10)', (c) => c.notNull().defaultTo(''))
    .addColumn('days', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('forward_targets', 'varchar(4000)', (c) => c.notNull().defaultTo(''))
    .addColumn('keep_copy', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mailbox_rules').ifExists().execute();
}
