import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-12-01: the registries the EPP registry driver speaks to (PANEL_REGISTRY_DRIVER=epp).
 *
 * - `epp_registries`: one per registry: the TLDs it is the registry of (comma-separated), where it
 *   listens, the registrar's client certificate and key files and the registry's CA file ('' for
 *   the system's), the login and its password sealed with the panel's key, host objects or host
 *   attributes, how many sessions and commands a second it allows, and the extensions its last
 *   greeting announced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('epp_registries'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('tlds', 'varchar(1000)', (c) => c.notNull())
    .addColumn('host', 'varchar(253)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull().defaultTo(700))
    .addColumn('cert_file', 'varchar(1024)', (c) => c.notNull())
    .addColumn('key_file', 'varchar(1024)', (c) => c.notNull())
    .addColumn('ca_file', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('client_id', 'varchar(16)', (c) => c.notNull())
    .addColumn('password_sealed', 'text', (c) => c.notNull())
    .addColumn('host_objects', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sessions', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('rate_per_second', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('extensions', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('epp_registries').ifExists().execute();
}
