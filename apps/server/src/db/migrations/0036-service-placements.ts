import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-11-30: which of the provider's servers holds each part of a hosting service, and
 * the addresses of each server.
 *
 * - `nodes.ipv4`, `nodes.ipv6`: the server's public addresses ('' : none given), which the
 *   records a zone gets from the provider's settings (`{web_ipv4}`, `{mail_ipv4}`…) take for a
 *   service placed on it.
 * - `service_placements`: one row per service and role (web: its home, sites, PHP pools and FTP
 *   logins; mail: its mailboxes; databases: its MariaDB databases), naming the server (`nodes.name`).
 *   A service with no row for a role has that part on the server without a name: the control
 *   plane's own machine, as every service had before servers were data. The server is named, not
 *   referenced by id, because agents and the work log's queues know servers by name; removing a
 *   server that still holds parts is refused by the service, not by a foreign key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_placements')
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('node', 'varchar(63)', (c) => c.notNull())
    .addColumn('placed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('service_placements_pk', ['service_id', 'role'])
    .execute();
  await db.schema
    .alterTable('nodes')
    .addColumn('ipv4', 'varchar(15)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('nodes')
    .addColumn('ipv6', 'varchar(39)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('service_placements_node').on('service_placements').columns(['node', 'role']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_placements').ifExists().execute();
  await db.schema.alterTable('nodes').dropColumn('ipv6').execute();
  await db.schema.alterTable('nodes').dropColumn('ipv4').execute();
}
