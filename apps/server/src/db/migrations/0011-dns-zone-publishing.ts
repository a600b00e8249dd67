import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-11-25: a zone's changes are published outside the database transaction.
 *
 * A change used to hold its transaction (and so a pooled connection, or SQLite's only writer)
 * while the DNS server answered; a hung server then stalled unrelated calls. Now a short lease
 * on the zone row (`lease_owner`, `lease_until`, epoch seconds) keeps changes of one zone in
 * order across instances without holding a connection, and `unpublished_since` marks a zone
 * whose server may not hold what the database says (a change the server did not confirm, or an
 * instance that stopped between commit and publish) until the publisher has checked it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('dns_zones').addColumn('lease_owner', 'varchar(64)').execute();
  await db.schema.alterTable('dns_zones').addColumn('lease_until', 'bigint').execute();
  await db.schema.alterTable('dns_zones').addColumn('unpublished_since', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('dns_zones').dropColumn('unpublished_since').execute();
  await db.schema.alterTable('dns_zones').dropColumn('lease_until').execute();
  await db.schema.alterTable('dns_zones').dropColumn('lease_owner').execute();
}
