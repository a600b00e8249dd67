import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-12-01: what the registries' poll queues said (EPP driver).
 *
 * - `registry_messages`: one per message a registry queued, unique by registry and message id
 *   (a message read twice, its first acknowledgement lost, is kept once). The domain it names
 *   ('' for none) and, for a domain transfer, its state, the registrar that asked for it and the
 *   one that acts on it, with both dates; `outgoing` when the panel's registrar is the one losing
 *   the domain. The registry's own text is kept as it came.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('registry_messages'))
    .addColumn('registry', 'varchar(64)', (c) => c.notNull())
    .addColumn('message_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('domain', 'varchar(253)', (c) => c.notNull().defaultTo(''))
    .addColumn('transfer_state', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('requested_by', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('requested_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('action_by', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('action_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('outgoing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('text', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .addColumn('queued_at', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('registry_messages_once', ['registry', 'message_id'])
    .execute();
  await db.schema.createIndex('registry_messages_domain').on('registry_messages').columns(['domain', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('registry_messages').ifExists().execute();
}
