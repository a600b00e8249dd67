import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-12-01: plans as data.
 *
 * - `plans`: the provider's named plans and their limits. A limit that is NULL has none. Sizes are
 *   in MiB: web space, monthly traffic, the largest mailbox, the databases' space and the backup
 *   room; counts: sites, mailboxes, aliases, FTP accounts, databases. `php_versions` is a comma
 *   list of the PHP versions the plan offers ('' : every version the server has), `php_workers`
 *   each service's PHP-FPM pool's `pm.max_children`.
 * - `resources.plan_id`: each hosting service's plan. The plan `default` is made here with the
 *   limits every service had before (the configuration's defaults), and every hosting service gets
 *   it; the panel that runs this migration then sets it from its own configuration (see
 *   modules/plans/configured-plan.ts), so that nothing changes for a service on upgrade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('plans'))
    .addColumn('name', 'varchar(63)', (c) => c.notNull().unique())
    .addColumn('web_space_mb', 'bigint')
    .addColumn('traffic_mb', 'bigint')
    .addColumn('sites', 'integer')
    .addColumn('mailboxes', 'integer')
    .addColumn('mailbox_mb', 'bigint')
    .addColumn('aliases', 'integer')
    .addColumn('ftp_accounts', 'integer')
    .addColumn('databases', 'integer')
    .addColumn('database_space_mb', 'bigint')
    .addColumn('backup_mb', 'bigint')
    .addColumn('php_versions', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('php_workers', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('resources')
    .addColumn('plan_id', 'integer', (c) => c.references('plans.id'))
    .execute();
  const now = Math.floor(Date.now() / 1000);
  await (db as Kysely<PlansMigrationTables>)
    .insertInto('plans')
    .values({
      name: 'default',
      web_space_mb: 10_240,
      traffic_mb: 102_400,
      mailbox_mb: 10_240,
      databases: 5,
      database_space_mb: 1_024,
      backup_mb: 10_240,
      php_workers: 5,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const plan = await (db as Kysely<PlansMigrationTables>)
    .selectFrom('plans')
    .select('id')
    .where('name', '=', 'default')
    .executeTakeFirstOrThrow();
  await (db as Kysely<PlansMigrationTables>)
    .updateTable('resources')
    .set({ plan_id: plan.id })
    .where('has_service', '=', 1)
    .execute();
}

interface PlansMigrationTables {
  plans: {
    id?: number;
    name: string;
    web_space_mb: number;
    traffic_mb: number;
    mailbox_mb: number;
    databases: number;
    database_space_mb: number;
    backup_mb: number;
    php_workers: number;
    created_at: number;
    updated_at: number;
  };
  resources: { plan_id: number | null; has_service: number };
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('resources').dropColumn('plan_id').execute();
  await db.schema.dropTable('plans').ifExists().execute();
}
