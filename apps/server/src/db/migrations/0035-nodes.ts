import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-30: the provider's servers as data (`panel node add|list|drain|remove`).
 *
 * - `nodes`: each server's name (what its agent says it is, PANEL_NODE), its roles (a comma list
 *   of web, mail, databases, dns), its capacity (the services it takes), the host name customers
 *   connect to, its agent's node channel (PANEL_AGENT_URL on that server), whether it still takes
 *   new services (`active`) or not (`draining`), the SHA-256 of its agent's key (the key itself
 *   is shown once, at `node add`), and when its agent was last heard from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('nodes'))
    .addColumn('name', 'varchar(63)', (c) => c.notNull().unique())
    .addColumn('roles', 'varchar(64)', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .addColumn('host', 'varchar(253)', (c) => c.notNull())
    .addColumn('channel_url', 'varchar(300)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('nodes').ifExists().execute();
}
