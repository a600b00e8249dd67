import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface ServiceUserRow {
  service_id: number;
  name: string;
  uid: number;
  gid: number;
}

const COLUMNS = ['service_id', 'name', 'uid', 'gid'] as const;

/** How many times an allocation tries again after another instance took the uid it picked. */
const ALLOCATION_TRIES = 64;

/** The `service_users` rows (migration 0027): who each hosting service's system user is. */
export const serviceUsersRepository = {
  byService(db: Db, serviceId: number): Promise<ServiceUserRow | undefined> {
    return db.selectFrom('service_users').select(COLUMNS).where('service_id', '=', serviceId).executeTakeFirst();
  },

  /**
   * Where the service's home is on this machine's hosting root: ProFTPD's view gives the
   * service's own login that home (migration 0047). Written when it differs, by whoever made it.
   */
  async recordHome(db: Db, serviceId: number, home: string): Promise<void> {
    await db
      .updateTable('service_users')
      .set({ home })
      .where('service_id', '=', serviceId)
      .where('home', '<>', home)
      .execute();
  },

  /** The user of the hosting service of this domain (punycode), if it has one. */
  byDomain(db: Db, domain: string): Promise<ServiceUserRow | undefined> {
    return db
      .selectFrom('service_users as u')
      .innerJoin('resources as r', 'r.id', 'u.service_id')
      .select(['u.service_id', 'u.name', 'u.uid', 'u.gid'])
      .where('r.reference_punycode', '=', domain)
      .where('r.has_service', '=', 1)
      .executeTakeFirst();
  },

  /** Whether a hosting service of this domain (punycode) exists. */
  async hasService(db: Db, domain: string): Promise<boolean> {
    const row = await db
      .selectFrom('resources')
      .select('id')
      .where('reference_punycode', '=', domain)
      .where('has_service', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** The domain (punycode) of a hosting service, or undefined when there is no such service. */
  async domainOf(db: Db, serviceId: number): Promise<string | undefined> {
    const row = await db
      .selectFrom('resources')
      .select('reference_punycode')
      .where('id', '=', serviceId)
      .where('has_service', '=', 1)
      .executeTakeFirst();
    return row?.reference_punycode;
  },

  /** Every hosting service with its user's row (null columns: none yet), in id order: what `sync` walks. */
  servicesWithUsers(db: Db) {
    return db
      .selectFrom('resources as r')
      .leftJoin('service_users as u', 'u.service_id', 'r.id')
      .select(['r.id as serviceId', 'r.reference_punycode as domain', 'u.name', 'u.uid', 'u.gid'])
      .where('r.has_service', '=', 1)
      .orderBy('r.id')
      .execute();
  },

  /** Every row, hosting service or not (a service whose hosting was turned off keeps its row until removed). */
  all(db: Db): Promise<ServiceUserRow[]> {
    return db.selectFrom('service_users').select(COLUMNS).orderBy('service_id').execute();
  },

  delete(db: Db, serviceId: number) {
    return db.deleteFrom('service_users').where('service_id', '=', serviceId).execute();
  },

  /**
   * The uid a new user gets: the one after the highest given in the range (so a removed service's
   * number is reused as late as possible), else the lowest gap; undefined when the range is full.
   */
  async nextFreeUid(db: Db, range: { min: number; max: number }): Promise<number | undefined> {
    const { rows } = await sql<{ top: number | string | null }>`
      SELECT MAX(uid) AS top FROM service_users WHERE uid BETWEEN ${range.min} AND ${range.max}`.execute(db);
    const top = rows[0]?.top;
    if (top === null || top === undefined) return range.min;
    if (Number(top) < range.max) return Number(top) + 1;
    const first = await db.selectFrom('service_users').select('uid').where('uid', '=', range.min).executeTakeFirst();
    if (!first) return range.min;
    const gap = await sql<{ free: number | string | null }>`
      SELECT MIN(s.uid + 1) AS free FROM service_users s
      WHERE s.uid >= ${range.min} AND s.uid < ${range.max}
        AND NOT EXISTS (SELECT 1 FROM service_users t WHERE t.uid = s.uid + 1)`.execute(db);
    const free = gap.rows[0]?.free;
    return free === null || free === undefined ? undefined : Number(free);
  },

  /**
   * The service's row, made if it has none: a uid from the range, the group of the same number.
   * Safe with any number of instances at once on PostgreSQL: the unique keys (service, name, uid)
   * turn a lost race into an insert that does nothing, and the loser reads again (the service's
   * row another instance made, or the next free uid). 'full' when the range has no uid left.
   */
  async allocate(
    db: Db,
    serviceId: number,
    name: string,
    range: { min: number; max: number },
    now: number,
  ): Promise<ServiceUserRow | 'full'> {
    for (let attempt = 0; attempt < ALLOCATION_TRIES; attempt++) {
      const existing = await this.byService(db, serviceId);
      if (existing) return existing;
      const uid = await this.nextFreeUid(db, range);
      if (uid === undefined) return 'full';
      const row = { service_id: serviceId, name, uid, gid: uid };
      const inserted = await db
        .insertInto('service_users')
        .values({ ...row, created_at: now })
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return row;
    }
    throw new Error(`no uid could be allocated to service ${serviceId} after ${ALLOCATION_TRIES} tries`);
  },
};
