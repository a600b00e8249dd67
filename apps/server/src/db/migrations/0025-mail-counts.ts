import { type Kysely, sql } from 'kysely';

/**
 * Frozen on 2026-11-26: how many mailboxes and aliases each service has (`mail_counts`), so the
 * mail view's unfiltered page reads its total from one row instead of counting every row of a
 * service of 10,000 addresses at each call. The repository keeps it in the same transaction as
 * each insert and delete; this fills it for the rows already there. Gone with the service.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_counts')
    .addColumn('service_id', 'integer', (c) => c.primaryKey().references('resources.id').onDelete('cascade'))
    .addColumn('mailboxes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('aliases', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    INSERT INTO mail_counts (service_id, mailboxes, aliases)
    SELECT service_id, SUM(m), SUM(a) FROM (
      SELECT service_id, 1 AS m, 0 AS a FROM mailboxes
      UNION ALL
      SELECT service_id, 0 AS m, 1 AS a FROM mail_aliases
    ) rows_of_services
    GROUP BY service_id
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_counts').ifExists().execute();
}
