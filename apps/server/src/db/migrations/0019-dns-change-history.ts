import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-26: every change of a DNS zone kept as a change set (who, when, what kind),
 * with the records of each RRset it touched before and after (JSON lists, the panel's own form).
 * Both go with their zone; the oldest sets are pruned past the retention (PANEL_DNS_HISTORY_*).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('dns_change_sets'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('dns_zones.service_id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('who', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('refers_to', 'integer')
    .addColumn('rrset_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('dns_change_sets_zone_idx').on('dns_change_sets').columns(['service_id', 'id']).execute();

  await withIdColumn(db, db.schema.createTable('dns_change_rrsets'))
    .addColumn('change_set_id', 'integer', (c) => c.notNull().references('dns_change_sets.id').onDelete('cascade'))
    .addColumn('zona', 'varchar(253)', (c) => c.notNull())
    .addColumn('type', 'varchar(10)', (c) => c.notNull())
    .addColumn('before', 'text', (c) => c.notNull())
    .addColumn('after', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dns_change_rrsets_set_idx')
    .on('dns_change_rrsets')
    .columns(['change_set_id', 'zona', 'type'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dns_change_rrsets').ifExists().execute();
  await db.schema.dropTable('dns_change_sets').ifExists().execute();
}
