import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ServiceTerminationTable } from '../../db/schema.ts';

export type TerminationRow = Selectable<ServiceTerminationTable>;

/** The `service_terminations` rows (migration 0041) and the reads a termination plans with. */
export const serviceTerminationsRepository = {
  /** The termination's row, made once: a second call for a service being terminated adds nothing. */
  async start(db: Db, row: { service_id: number; domain: string; account_id: number }, now: number): Promise<void> {
    await db
      .insertInto('service_terminations')
      .values({
        ...row,
        state: 'running',
        requested_at: now,
        updated_at: now,
        keep_until: null,
        backup_released_at: null,
        finished_at: null,
      })
      .onConflict((oc) => oc.column('service_id').doNothing())
      .execute();
  },

  get(db: Db, serviceId: number): Promise<TerminationRow | undefined> {
    return db.selectFrom('service_terminations').selectAll().where('service_id', '=', serviceId).executeTakeFirst();
  },

  /** The newest termination of a domain (one made again later may have been terminated again). */
  latestOf(db: Db, domain: string): Promise<TerminationRow | undefined> {
    return db
      .selectFrom('service_terminations')
      .selectAll()
      .where('domain', '=', domain)
      .orderBy('requested_at', 'desc')
      .orderBy('service_id', 'desc')
      .executeTakeFirst();
  },

  async update(
    db: Db,
    serviceId: number,
    values: Partial<Omit<TerminationRow, 'service_id' | 'domain' | 'account_id' | 'requested_at'>>,
    now: number,
  ): Promise<void> {
    await db
      .updateTable('service_terminations')
      .set({ ...values, updated_at: now })
      .where('service_id', '=', serviceId)
      .execute();
  },

  /** The service's resource row: its account, its domain and whether it is a registration too. */
  resource(db: Db, serviceId: number) {
    return db
      .selectFrom('resources')
      .select(['id', 'account_id', 'reference', 'reference_punycode', 'has_domain'])
      .where('id', '=', serviceId)
      .where('has_service', '=', 1)
      .executeTakeFirst();
  },

  /**
   * What a termination removes, read from the other areas' tables before the rows go (as the
   * backups' settings are): the server holding each part, the system user, the mailboxes, the
   * databases and whether there is a zone.
   */
  async removal(db: Db, serviceId: number) {
    const [placements, user, mailboxes, databases, zone] = await Promise.all([
      db.selectFrom('service_placements').select(['role', 'node']).where('service_id', '=', serviceId).execute(),
      db
        .selectFrom('service_users')
        .select(['name', 'uid', 'gid'])
        .where('service_id', '=', serviceId)
        .executeTakeFirst(),
      db.selectFrom('mailboxes').select('local_part').where('service_id', '=', serviceId).execute(),
      db
        .selectFrom('hosted_databases')
        .select(['name', 'db_user'])
        .where('service_id', '=', serviceId)
        .orderBy('id')
        .execute(),
      db.selectFrom('dns_zones').select('service_id').where('service_id', '=', serviceId).executeTakeFirst(),
    ]);
    return { placements, user, mailboxes, databases, hasZone: zone !== undefined };
  },

  /**
   * The service's rows deleted (everything of it goes with its resource row), and its account's
   * too when it has nothing else: the account's users, sessions and tokens go with it.
   */
  async deleteService(trx: Db, serviceId: number, accountId: number): Promise<void> {
    // the logs of its changes name it without a foreign key: nothing is left to apply
    await trx.deleteFrom('service_changes').where('service_id', '=', serviceId).execute();
    await trx.deleteFrom('dns_zone_changes').where('service_id', '=', serviceId).execute();
    await trx.deleteFrom('resources').where('id', '=', serviceId).execute();
    const left = await trx.selectFrom('resources').select('id').where('account_id', '=', accountId).executeTakeFirst();
    if (!left) await trx.deleteFrom('accounts').where('id', '=', accountId).execute();
  },
};
