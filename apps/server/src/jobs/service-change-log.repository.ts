import type { Db } from '../db/database.ts';
import type { ServiceArea, ServiceChangeEntry, ServiceChangeOutcome, ServiceChangeWord } from './service-change-log.ts';

/**
 * The changes on their way to a service's server (service_changes), written in each change's own
 * transaction, taken in order by the service's `<area>.apply-service` job.
 */
export const serviceChangeLog = {
  /**
   * Takes the service's turn for a change (its resource row, locked until the transaction ends on
   * PostgreSQL; SQLite has one writer anyway): changes of one service commit one after another,
   * so their entries are in the order of their commits and each one's undo is what the one
   * before left.
   */
  async takeTurn(trx: Db, serviceId: number): Promise<void> {
    await trx
      .updateTable('resources')
      .set((eb) => ({ has_service: eb.ref('has_service') }))
      .where('id', '=', serviceId)
      .execute();
  },

  async append<C, U>(
    trx: Db,
    area: ServiceArea,
    serviceId: number,
    change: C,
    undo: U | null,
    now: number,
  ): Promise<number> {
    const row = await trx
      .insertInto('service_changes')
      .values({
        area,
        service_id: serviceId,
        change: JSON.stringify(change),
        undo: undo && JSON.stringify(undo),
        state: 'pending',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  },

  /** The service's pending changes in the order they were made (from `fromId` on). */
  async pending<C, U>(db: Db, area: ServiceArea, serviceId: number, fromId = 0): Promise<ServiceChangeEntry<C, U>[]> {
    const rows = await db
      .selectFrom('service_changes')
      .select(['id', 'change', 'undo', 'created_at'])
      .where('area', '=', area)
      .where('service_id', '=', serviceId)
      .where('state', '=', 'pending')
      .where('id', '>=', fromId)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      change: JSON.parse(row.change) as C,
      undo: row.undo ? (JSON.parse(row.undo) as U) : null,
      createdAt: Number(row.created_at),
    }));
  },

  /** The word on one change; a change no longer recorded was applied and forgotten. */
  async word(db: Db, id: number): Promise<ServiceChangeWord> {
    const row = await db
      .selectFrom('service_changes')
      .select(['state', 'outcome'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return { state: 'applied', outcome: null };
    return { state: row.state, outcome: row.outcome ? (JSON.parse(row.outcome) as ServiceChangeOutcome) : null };
  },

  async finish(
    db: Db,
    ids: number[],
    state: 'applied' | 'refused',
    outcome: ServiceChangeOutcome | null = null,
  ): Promise<void> {
    if (ids.length === 0) return;
    await db
      .updateTable('service_changes')
      // The rows kept to undo it (a sealed key among them) are no longer needed.
      .set({ state, outcome: outcome && JSON.stringify(outcome), undo: null })
      .where('id', 'in', ids)
      .execute();
  },

  /** Keeps changes pending with what their last attempt met. */
  async noteAttempt(db: Db, ids: number[], outcome: ServiceChangeOutcome): Promise<void> {
    if (ids.length === 0) return;
    await db
      .updateTable('service_changes')
      .set({ outcome: JSON.stringify(outcome) })
      .where('id', 'in', ids)
      .execute();
  },

  /**
   * Since when the service has changes to apply in the area (null: none), and what the last
   * failed attempt met, if the oldest of them has one.
   */
  async backlog(db: Db, area: ServiceArea, serviceId: number) {
    const oldest = await db
      .selectFrom('service_changes')
      .select(['id', 'created_at', 'outcome'])
      .where('area', '=', area)
      .where('service_id', '=', serviceId)
      .where('state', '=', 'pending')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!oldest) return null;
    const outcome = oldest.outcome ? (JSON.parse(oldest.outcome) as ServiceChangeOutcome) : null;
    return {
      since: Number(oldest.created_at),
      lastId: oldest.id,
      failedAttempt: outcome && 'failedAttempt' in outcome ? outcome.failedAttempt : null,
    };
  },

  /** The newest pending change of the service (what a "try again" waits for). */
  async newestPending(db: Db, area: ServiceArea, serviceId: number): Promise<number | null> {
    const row = await db
      .selectFrom('service_changes')
      .select('id')
      .where('area', '=', area)
      .where('service_id', '=', serviceId)
      .where('state', '=', 'pending')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  },

  /** Forgets what the service's earlier attempts met, so that the next one's word is waited for. */
  async clearAttempts(db: Db, area: ServiceArea, serviceId: number): Promise<void> {
    await db
      .updateTable('service_changes')
      .set({ outcome: null })
      .where('area', '=', area)
      .where('service_id', '=', serviceId)
      .where('state', '=', 'pending')
      .execute();
  },

  /**
   * Whether a service has a change of any area still on its way (the node sync waits for none);
   * `only`: among these services (a server's own, so one server down holds no other's sync).
   */
  async anyPending(db: Db, only?: (serviceId: number) => boolean): Promise<boolean> {
    const rows = await db
      .selectFrom('service_changes')
      .select('service_id')
      .distinct()
      .where('state', '=', 'pending')
      .$if(only === undefined, (query) => query.limit(1))
      .execute();
    return only ? rows.some((row) => only(row.service_id)) : rows.length > 0;
  },

  /** Every service with changes left in the area, with its domain (the round that sends their jobs again). */
  servicesWithPending(db: Db, area: ServiceArea) {
    return db
      .selectFrom('service_changes as c')
      .innerJoin('resources as r', 'r.id', 'c.service_id')
      .select(['c.service_id as serviceId', 'r.reference_punycode as domain'])
      .distinct()
      .where('c.state', '=', 'pending')
      .where('c.area', '=', area)
      .orderBy('c.service_id')
      .execute();
  },

  /**
   * Every service with changes waiting, oldest first: how many, since when, and what the last
   * attempt met (doctor, `panel jobs changes`).
   */
  async backlogs(db: Db) {
    const groups = await db
      .selectFrom('service_changes as c')
      .innerJoin('resources as r', 'r.id', 'c.service_id')
      .select((eb) => [
        'c.area',
        'c.service_id',
        'r.reference_punycode as domain',
        eb.fn.countAll<number>().as('n'),
        eb.fn.min('c.id').as('oldest'),
      ])
      .where('c.state', '=', 'pending')
      .groupBy(['c.area', 'c.service_id', 'r.reference_punycode'])
      .orderBy('oldest')
      .execute();
    const result = [];
    for (const group of groups) {
      const oldest = await db
        .selectFrom('service_changes')
        .select(['created_at', 'outcome'])
        .where('id', '=', Number(group.oldest))
        .executeTakeFirst();
      const outcome = oldest?.outcome ? (JSON.parse(oldest.outcome) as ServiceChangeOutcome) : null;
      result.push({
        area: group.area,
        serviceId: group.service_id,
        domain: group.domain,
        pending: Number(group.n),
        since: Number(oldest?.created_at ?? 0),
        lastError: outcome && 'failedAttempt' in outcome ? outcome.failedAttempt.detail : null,
      });
    }
    return result;
  },

  /** Forgets a service's finished changes older than `before` (their requests have long had their answer). */
  async forgetFinished(db: Db, area: ServiceArea, serviceId: number, before: number): Promise<void> {
    await db
      .deleteFrom('service_changes')
      .where('area', '=', area)
      .where('service_id', '=', serviceId)
      .where('state', '<>', 'pending')
      .where('created_at', '<', before)
      .execute();
  },

  /** Forgets every finished change older than `before`, in every area. */
  async forgetAllFinished(db: Db, before: number): Promise<void> {
    await db.deleteFrom('service_changes').where('state', '<>', 'pending').where('created_at', '<', before).execute();
  },
};
