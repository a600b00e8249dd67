import type { Insertable, Selectable } from 'kysely';
import { inChunks } from '../../db/bulk-insert.ts';
import type { Db } from '../../db/database.ts';
import type { DnsChangeRRsetTable, DnsChangeSetTable, DnsRecordRow } from '../../db/schema.ts';

export type ChangeSetRow = Selectable<DnsChangeSetTable>;
export type ChangeRRsetRow = Selectable<DnsChangeRRsetTable>;

/** The zone history's queries, always scoped by the service (whose ownership the service checked). */
export const dnsHistoryRepository = {
  async insertChangeSet(db: Db, row: Insertable<DnsChangeSetTable>): Promise<number> {
    const inserted = await db.insertInto('dns_change_sets').values(row).returning('id').executeTakeFirstOrThrow();
    return inserted.id;
  },

  insertRRsets(db: Db, rows: Insertable<DnsChangeRRsetTable>[]) {
    return inChunks(rows, (chunk) => db.insertInto('dns_change_rrsets').values(chunk).execute());
  },

  /** A change the DNS server refused was put back: its change set goes too (its RRsets with it). */
  async deleteChangeSet(db: Db, id: number): Promise<void> {
    await db.deleteFrom('dns_change_sets').where('id', '=', id).execute();
  },

  /**
   * Keeps the zone's newest `keep` change sets and those younger than `since` (both limits apply);
   * one indexed statement, the RRsets going by the foreign key's cascade.
   */
  async prune(db: Db, serviceId: number, keep: number, since: number | null): Promise<void> {
    const tooMany = db
      .selectFrom('dns_change_sets')
      .select('id')
      .where('service_id', '=', serviceId)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(keep);
    await db
      .deleteFrom('dns_change_sets')
      .where('service_id', '=', serviceId)
      .where((eb) =>
        since === null ? eb('id', '<=', tooMany) : eb.or([eb('id', '<=', tooMany), eb('created_at', '<', since)]),
      )
      .execute();
  },

  async page(db: Db, serviceId: number, limit: number, offset: number) {
    const base = db.selectFrom('dns_change_sets').where('service_id', '=', serviceId);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },

  find(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('dns_change_sets')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  rrsetsPage(db: Db, changeSetId: number, limit: number, offset: number) {
    return db
      .selectFrom('dns_change_rrsets')
      .selectAll()
      .where('change_set_id', '=', changeSetId)
      .orderBy('zona')
      .orderBy('type')
      .limit(limit)
      .offset(offset)
      .execute();
  },

  rrsetsOf(db: Db, changeSetId: number) {
    return db.selectFrom('dns_change_rrsets').selectAll().where('change_set_id', '=', changeSetId).execute();
  },

  /** The RRsets of the zone's change sets after `afterId` that changed its records (a sync changed none), oldest first. */
  rrsetsAfter(db: Db, serviceId: number, afterId: number) {
    return db
      .selectFrom('dns_change_rrsets as r')
      .innerJoin('dns_change_sets as s', 's.id', 'r.change_set_id')
      .select(['r.zona', 'r.type', 'r.before', 'r.change_set_id'])
      .where('s.service_id', '=', serviceId)
      .where('s.id', '>', afterId)
      .where('s.kind', '!=', 'sync')
      .orderBy('s.id')
      .execute();
  },

  /** The newest change set after `afterId` that touched an RRset (for a refused revert's reason). */
  lastTouching(db: Db, serviceId: number, afterId: number, rrset: { zona: string; type: string }) {
    return db
      .selectFrom('dns_change_rrsets as r')
      .innerJoin('dns_change_sets as s', 's.id', 'r.change_set_id')
      .select(['s.id', 's.who', 's.created_at'])
      .where('s.service_id', '=', serviceId)
      .where('s.id', '>', afterId)
      .where('r.zona', '=', rrset.zona)
      .where('r.type', '=', rrset.type)
      .orderBy('s.id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  /** The zone's records at some names (what a change set's RRsets hold now), in slices of names. */
  async recordsAt(db: Db, serviceId: number, names: string[]): Promise<DnsRecordRow[]> {
    const rows: DnsRecordRow[] = [];
    for (let start = 0; start < names.length; start += 500) {
      rows.push(
        ...(await db
          .selectFrom('dns_records')
          .selectAll()
          .where('service_id', '=', serviceId)
          .where('zona', 'in', names.slice(start, start + 500))
          .orderBy('id')
          .execute()),
      );
    }
    return rows;
  },
};
