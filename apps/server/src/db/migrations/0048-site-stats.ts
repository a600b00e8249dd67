import { type Kysely, sql } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-12-01: site statistics.
 *
 * - `service_stats`, a permission key like the others: read sees a service's statistics, write
 *   asks for them to be read again now. Existing grants get their `service` level.
 * - `site_stats`: per service, site (its host name) and month (YYYY-MM), the summary the web
 *   server made of that month's requests with GoAccess (JSON: totals, days, top lists), written
 *   again at every refresh that brought new requests for it.
 * - `stats_refreshes`: per service, when its statistics were last refreshed.
 * - `plans.stats_log_mb`: how much of its sites' access logs a service keeps for its statistics
 *   (the oldest months go first; their summaries stay).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('permission_grants')
    .addColumn('service_stats', 'varchar(8)', (c) => c.notNull().defaultTo('disabled'))
    .execute();
  await sql`UPDATE permission_grants SET service_stats = service`.execute(db);

  await withIdColumn(db, db.schema.createTable('site_stats'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('host', 'varchar(253)', (c) => c.notNull())
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('site_stats_key', ['service_id', 'host', 'month'])
    .execute();

  await db.schema
    .createTable('stats_refreshes')
    .addColumn('service_id', 'integer', (c) => c.primaryKey().references('resources.id').onDelete('cascade'))
    .addColumn('refreshed_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('plans')
    .addColumn('stats_log_mb', 'integer', (c) => c.defaultTo(100))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('stats_log_mb').execute();
  await db.schema.dropTable('stats_refreshes').ifExists().execute();
  await db.schema.dropTable('site_stats').ifExists().execute();
  await db.schema.alterTable('permission_grants').dropColumn('service_stats').execute();
}
