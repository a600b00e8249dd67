import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PlanTable } from '../../db/schema.ts';
import type { CountedLimit } from './plan.ts';

export type PlanRow = Omit<Selectable<PlanTable>, 'created_at' | 'updated_at'>;

const COLUMNS = [
  'id',
  'name',
  'web_space_mb',
  'traffic_mb',
  'sites',
  'mailboxes',
  'mailbox_mb',
  'aliases',
  'ftp_accounts',
  'databases',
  'database_space_mb',
  'backup_mb',
  'php_versions',
  'php_workers',
  'cron_tasks',
  'cron_min_interval_minutes',
  'ssh_keys',
  'spam_senders',
  'stats_log_mb',
] as const;

/** Where each counted limit's rows are: one row per thing of the service. */
const COUNTED_TABLES = {
  sites: 'web_sites',
  mailboxes: 'mailboxes',
  aliases: 'mail_aliases',
  ftpAccounts: 'ftp_accounts',
  databases: 'hosted_databases',
  cronTasks: 'cron_tasks',
  sshKeys: 'ssh_keys',
  spamSenders: 'mail_spam_senders',
} as const satisfies Record<CountedLimit, string>;

/** The `plans` rows and each hosting service's `resources.plan_id` (migration 0038). */
export const plansRepository = {
  async list(db: Db) {
    const rows = await db.selectFrom('plans').select(COLUMNS).orderBy('name').execute();
    const counts = await db
      .selectFrom('resources')
      .select((eb) => ['plan_id', eb.fn.countAll<string | number>().as('services')])
      .where('has_service', '=', 1)
      .groupBy('plan_id')
      .execute();
    const services = new Map(counts.map((row) => [row.plan_id, Number(row.services)]));
    return rows.map((row) => ({ row, services: services.get(row.id) ?? 0 }));
  },

  byName(db: Db, name: string) {
    return db.selectFrom('plans').select(COLUMNS).where('name', '=', name).executeTakeFirst();
  },

  /** A service's plan: its own, or `default` for one made before it had a plan. */
  async ofService(db: Db, serviceId: number): Promise<PlanRow | undefined> {
    const own = await db
      .selectFrom('resources')
      .innerJoin('plans', 'plans.id', 'resources.plan_id')
      .select(COLUMNS.map((column) => `plans.${column}` as const))
      .where('resources.id', '=', serviceId)
      .executeTakeFirst();
    return own ?? plansRepository.byName(db, 'default');
  },

  async insert(db: Db, row: Omit<Insertable<PlanTable>, 'id'>): Promise<void> {
    await db.insertInto('plans').values(row).execute();
  },

  async update(db: Db, id: number, set: Updateable<PlanTable>): Promise<void> {
    await db.updateTable('plans').set(set).where('id', '=', id).execute();
  },

  async remove(db: Db, id: number): Promise<void> {
    await db.deleteFrom('plans').where('id', '=', id).execute();
  },

  /** The hosting services on a plan (`default` counts those with none). */
  async servicesOn(db: Db, plan: { id: number; name: string }) {
    return db
      .selectFrom('resources')
      .select(['id', 'reference_punycode as domain'])
      .where('has_service', '=', 1)
      .where((eb) =>
        plan.name === 'default'
          ? eb.or([eb('plan_id', '=', plan.id), eb('plan_id', 'is', null)])
          : eb('plan_id', '=', plan.id),
      )
      .orderBy('id')
      .execute();
  },

  async setServicePlan(db: Db, serviceId: number, planId: number): Promise<void> {
    await db.updateTable('resources').set({ plan_id: planId }).where('id', '=', serviceId).execute();
  },

  /** How many of one thing a service has. */
  async count(db: Db, serviceId: number, limit: CountedLimit): Promise<number> {
    const row = await db
      .selectFrom(COUNTED_TABLES[limit])
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('service_id', '=', serviceId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  /** The largest quota among the service's mailboxes, in bytes (0 without one). */
  async largestMailboxBytes(db: Db, serviceId: number): Promise<number> {
    const row = await db
      .selectFrom('mailboxes')
      .select((eb) => eb.fn.max('quota_bytes').as('largest'))
      .where('service_id', '=', serviceId)
      .executeTakeFirst();
    return Number(row?.largest ?? 0);
  },

  /** The PHP version the service chose ('' : the server's default). */
  async phpVersion(db: Db, serviceId: number): Promise<string> {
    const row = await db
      .selectFrom('web_settings')
      .select('php_version')
      .where('service_id', '=', serviceId)
      .executeTakeFirst();
    return row?.php_version ?? '';
  },
};
