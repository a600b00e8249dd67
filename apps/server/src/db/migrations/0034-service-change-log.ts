import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-29: the changes a server must apply for a service (its web side first; mail,
 * FTP and databases later) go through the work log, one `<area>.apply-service` job per service.
 *
 * - `service_changes`: per area and service, what each change touched (`change`, JSON) and the
 *   rows it replaced (`undo`, JSON) in case the server refuses it, written in the change's own
 *   transaction; `state` pending, applied or refused, and `outcome` (JSON: a refusal's field
 *   errors, the last failed attempt's error) for the request that waits on it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('service_changes'))
    .addColumn('area', 'varchar(16)', (c) => c.notNull())
    .addColumn('service_id', 'integer', (c) => c.notNull())
    .addColumn('change', 'text', (c) => c.notNull())
    .addColumn('undo', 'text')
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('outcome', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('service_changes_service')
    .on('service_changes')
    .columns(['area', 'service_id', 'state', 'id'])
    .execute();
  // The round that finds every service with changes left: few rows are pending at any time.
  await db.schema.createIndex('service_changes_state').on('service_changes').columns(['state', 'area']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_changes').ifExists().execute();
}
