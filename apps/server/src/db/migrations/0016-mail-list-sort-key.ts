import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Frozen on 2026-11-26: the mail view's sort key stored and indexed.
 *
 * The mail view lists accounts and aliases together, sorted by the address as shown in lower
 * case ('local@domain', or the domain alone for the alias of every address). Sorting that
 * expression meant reading, merging and sorting every row of the service at each page (20,000
 * rows at the scale data set's size). `sort_key` holds the expression's value, written by the
 * repository with each row (a service's domain never changes), and the index on
 * (service_id, sort_key, id) hands each table's first rows of a page in order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['mailboxes', 'mail_aliases']) {
    await db.schema
      .alterTable(table)
      .addColumn('sort_key', 'varchar(320)', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  const domain = sql`(select r.reference_punycode from resources r where r.id = service_id)`;
  await sql`update mailboxes set sort_key = lower(local_part || '@' || ${domain})`.execute(db);
  await sql`update mail_aliases set sort_key =
    lower(case when local_part = '' then ${domain} else local_part || '@' || ${domain} end)`.execute(db);
  await db.schema.createIndex('mailboxes_sort_idx').on('mailboxes').columns(['service_id', 'sort_key', 'id']).execute();
  await db.schema
    .createIndex('mail_aliases_sort_idx')
    .on('mail_aliases')
    .columns(['service_id', 'sort_key', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mail_aliases_sort_idx').ifExists().execute();
  await db.schema.dropIndex('mailboxes_sort_idx').ifExists().execute();
  for (const table of ['mailboxes', 'mail_aliases']) await db.schema.alterTable(table).dropColumn('sort_key').execute();
}
