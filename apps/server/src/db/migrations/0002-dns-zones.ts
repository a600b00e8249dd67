import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/** Frozen on 2026-11-22: DNS zones of hosting services and their records. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dns_zones')
    .addColumn('service_id', 'integer', (c) => c.primaryKey().references('resources.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('dns_records'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('dns_zones.service_id').onDelete('cascade'))
    .addColumn('zona', 'varchar(253)', (c) => c.notNull())
    .addColumn('type', 'varchar(10)', (c) => c.notNull())
    .addColumn('ttl', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('value', 'varchar(4000)', (c) => c.notNull())
    .addColumn('dynamic_value', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('eliminable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dns_records_owner_idx')
    .on('dns_records')
    .columns(['service_id', 'zona', 'type'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dns_records').ifExists().execute();
  await db.schema.dropTable('dns_zones').ifExists().execute();
}
