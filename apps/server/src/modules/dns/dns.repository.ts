import { toAsciiName } from '@panel247/contract/dns-rules';
import { type RawBuilder, sql } from 'kysely';
import { inChunks } from '../../db/bulk-insert.ts';
import type { Db } from '../../db/database.ts';
import type { DnsRecordRow } from '../../db/schema.ts';

/** Every DNS query, always scoped by the service (whose ownership the guard has checked). */
export const dnsRepository = {
  zoneExists(db: Db, serviceId: number) {
    return db.selectFrom('dns_zones').select('service_id').where('service_id', '=', serviceId).executeTakeFirst();
  },

  /** A new zone's row (a zone for a DNS server is marked until its first records are published). */
  insertZone(db: Db, serviceId: number, now: number, marked: boolean) {
    return db
      .insertInto('dns_zones')
      .values({ service_id: serviceId, created_at: now, unpublished_since: marked ? now : null })
      .execute();
  },

  /**
   * Takes the zone's row lock for the rest of the transaction: a no-op update, which PostgreSQL
   * makes wait for any other transaction holding the row, and which on SQLite takes the
   * database's write lock. For changes that call no DNS server, so nothing slow holds it.
   */
  async lockZone(db: Db, serviceId: number) {
    await db
      .updateTable('dns_zones')
      .set((eb) => ({ created_at: eb.ref('created_at') }))
      .where('service_id', '=', serviceId)
      .execute();
  },

  /** Takes a zone out again (its records go with it). */
  async deleteZone(db: Db, serviceId: number): Promise<void> {
    await db.deleteFrom('dns_zones').where('service_id', '=', serviceId).execute();
  },

  listUnpublishedZones(db: Db) {
    return db
      .selectFrom('dns_zones as z')
      .innerJoin('resources as r', 'r.id', 'z.service_id')
      .select(['z.service_id', 'r.reference', 'r.reference_punycode'])
      .where('z.unpublished_since', 'is not', null)
      .orderBy('z.unpublished_since')
      .execute();
  },

  listZones(db: Db) {
    return db
      .selectFrom('dns_zones as z')
      .innerJoin('resources as r', 'r.id', 'z.service_id')
      .select(['z.service_id', 'r.reference', 'r.reference_punycode'])
      .orderBy('r.reference')
      .execute();
  },

  list(db: Db, serviceId: number): Promise<DnsRecordRow[]> {
    return db
      .selectFrom('dns_records')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('zona')
      .orderBy('type')
      .orderBy('id')
      .execute();
  },

  /**
   * One page of the records matching a type and a text filter, with the total count. The filter
   * runs over the zone (ASCII and Unicode reference), type, name, value, dynamic value, TTL and
   * priority; a Unicode filter that is a whole name (`ñandú`) also matches its punycode form.
   */
  async page(
    db: Db,
    serviceId: number,
    zone: { name: string; reference: string },
    query: { type: string; filter: string; limit: number; offset: number },
  ): Promise<{ rows: DnsRecordRow[]; total: number }> {
    let base = db.selectFrom('dns_records').where('service_id', '=', serviceId);
    if (query.type) base = base.where('type', '=', query.type);
    const needle = query.filter.toLowerCase();
    // The zone's own name, in either form, belongs to every row: matching it matches everything.
    const wholeZone = zone.name.includes(needle) || zone.reference.toLowerCase().includes(needle);
    if (needle && !wholeZone) {
      const ascii = toAsciiName(needle);
      const needles = [needle, ...(ascii && ascii !== needle ? [ascii] : [])];
      const escaped = (column: RawBuilder<unknown>, text: string) => {
        const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        return sql<boolean>`lower(${column}) like ${like} escape '\\'`;
      };
      base = base.where((eb) =>
        eb.or(
          needles.flatMap((text) => [
            escaped(sql`zona || '.' || ${zone.name}`, text),
            escaped(sql`type`, text),
            escaped(sql`value`, text),
            escaped(sql`dynamic_value`, text),
            escaped(sql`cast(ttl as varchar(12))`, text),
            escaped(sql`cast(priority as varchar(12))`, text),
          ]),
        ),
      );
    }
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('zona').orderBy('type').orderBy('id').limit(query.limit).offset(query.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },

  listAt(db: Db, serviceId: number, zona: string) {
    return db
      .selectFrom('dns_records')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('zona', '=', zona)
      .execute();
  },

  /** Every record at the name of record `id` (itself included); none when there is no such record. */
  listAtNameOf(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('dns_records')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('zona', '=', (eb) =>
        eb.selectFrom('dns_records').select('zona').where('service_id', '=', serviceId).where('id', '=', id),
      )
      .execute();
  },

  find(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('dns_records')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async insert(db: Db, row: Omit<DnsRecordRow, 'id' | 'eliminable'> & { eliminable: boolean }): Promise<DnsRecordRow> {
    return db
      .insertInto('dns_records')
      .values({ ...row, eliminable: row.eliminable ? 1 : 0 })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Many new records in a few statements (an import); ids come from the database. */
  /** Many records in multi-row INSERTs (an import, the scale data set); the caller owns the transaction. */
  insertMany(db: Db, rows: (Omit<DnsRecordRow, 'id' | 'eliminable'> & { eliminable: boolean })[]) {
    return inChunks(rows, (chunk) =>
      db
        .insertInto('dns_records')
        .values(chunk.map((row) => ({ ...row, eliminable: row.eliminable ? 1 : 0 })))
        .execute(),
    );
  },

  /** Many records, answering them with their new ids (a history restore, which may have to undo them). */
  async insertReturning(
    db: Db,
    rows: (Omit<DnsRecordRow, 'id' | 'eliminable'> & { eliminable: boolean })[],
  ): Promise<DnsRecordRow[]> {
    const inserted: DnsRecordRow[] = [];
    await inChunks(rows, async (chunk) => {
      inserted.push(
        ...(await db
          .insertInto('dns_records')
          .values(chunk.map((row) => ({ ...row, eliminable: row.eliminable ? 1 : 0 })))
          .returningAll()
          .execute()),
      );
    });
    return inserted;
  },

  async update(db: Db, serviceId: number, id: number, set: { ttl: number; priority: number; value: string }) {
    return db
      .updateTable('dns_records')
      .set({ ...set, dynamic_value: '' })
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** The zones holding an RRset (name and type) whose records have more than one TTL. */
  async zonesWithSplitTtls(db: Db): Promise<number[]> {
    const rows = await db
      .selectFrom('dns_records')
      .select('service_id')
      .groupBy(['service_id', 'zona', 'type'])
      .having((eb) => eb.fn.count(eb.ref('ttl')).distinct(), '>', 1)
      .execute();
    return [...new Set(rows.map((row) => row.service_id))];
  },

  /** Gives records one TTL (their RRset's), keeping everything else of them. */
  async setTtl(db: Db, serviceId: number, ids: number[], ttl: number): Promise<void> {
    for (let start = 0; start < ids.length; start += 1000) {
      await db
        .updateTable('dns_records')
        .set({ ttl })
        .where('service_id', '=', serviceId)
        .where('id', 'in', ids.slice(start, start + 1000))
        .execute();
    }
  },

  async delete(db: Db, serviceId: number, id: number): Promise<void> {
    await db.deleteFrom('dns_records').where('service_id', '=', serviceId).where('id', '=', id).execute();
  },

  async deleteEliminable(db: Db, serviceId: number): Promise<void> {
    await db.deleteFrom('dns_records').where('service_id', '=', serviceId).where('eliminable', '=', 1).execute();
  },

  async deleteAll(db: Db, serviceId: number): Promise<void> {
    await db.deleteFrom('dns_records').where('service_id', '=', serviceId).execute();
  },

  /** Puts rows back exactly as they were, ids included (undoing a change the server refused). */
  async restoreRows(db: Db, rows: DnsRecordRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += 1000) {
      await db
        .insertInto('dns_records')
        .values(rows.slice(start, start + 1000))
        .execute();
    }
  },

  async deleteIds(db: Db, serviceId: number, ids: number[]): Promise<void> {
    // In slices: a whole zone's ids would pass the databases' limits on bound parameters.
    for (let start = 0; start < ids.length; start += 1000) {
      await db
        .deleteFrom('dns_records')
        .where('service_id', '=', serviceId)
        .where('id', 'in', ids.slice(start, start + 1000))
        .execute();
    }
  },
};
