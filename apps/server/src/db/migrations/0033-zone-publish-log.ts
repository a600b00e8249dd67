import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-29: a zone's changes reach the DNS server through the work log (a
 * `dns.publish-zone` job per zone) instead of a lease each change held while the server answered.
 *
 * - `dns_zone_changes`: what each change must publish (`publish`, JSON: the names it touched, the
 *   zone it rewrote, or a whole-zone sync) and how to undo it if the server refuses it (`undo`,
 *   JSON), written in the change's own transaction; `state` pending, published or refused, and
 *   `outcome` (JSON: a sync's report, a refusal's reason, the last failed attempt's error) for the
 *   request that waits on it.
 * - `dns_zones` loses `lease_owner` and `lease_until` (0011); `unpublished_since` stays: a zone
 *   with changes still to publish.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('dns_zone_changes'))
    .addColumn('service_id', 'integer', (c) => c.notNull())
    .addColumn('publish', 'text', (c) => c.notNull())
    .addColumn('undo', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('outcome', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dns_zone_changes_zone')
    .on('dns_zone_changes')
    .columns(['service_id', 'state', 'id'])
    .execute();
  await db.schema.alterTable('dns_zones').dropColumn('lease_owner').execute();
  await db.schema.alterTable('dns_zones').dropColumn('lease_until').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dns_zone_changes').ifExists().execute();
  await db.schema.alterTable('dns_zones').addColumn('lease_owner', 'varchar(64)').execute();
  await db.schema.alterTable('dns_zones').addColumn('lease_until', 'bigint').execute();
}
