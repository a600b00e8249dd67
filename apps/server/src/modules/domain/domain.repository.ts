import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ContactRow, DomainRow } from '../../db/schema.ts';

export type NewContact = Omit<ContactRow, 'id'>;

/** Every query of the domain area; callers pass ids the guard has already checked. */
export const domainRepository = {
  async hasService(db: Db, resourceId: number): Promise<boolean> {
    const row = await db.selectFrom('resources').select('has_service').where('id', '=', resourceId).executeTakeFirst();
    return row?.has_service === 1;
  },

  find(db: Db, resourceId: number): Promise<DomainRow | undefined> {
    return db.selectFrom('domains').selectAll().where('resource_id', '=', resourceId).executeTakeFirst();
  },

  /** Inserts the domain's row unless it has one: whether this call inserted it. */
  async insertIfMissing(db: Db, row: DomainRow): Promise<boolean> {
    const result = await db
      .insertInto('domains')
      .values(row)
      .onConflict((oc) => oc.column('resource_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  update(db: Db, resourceId: number, set: Partial<Omit<DomainRow, 'resource_id'>>) {
    return db.updateTable('domains').set(set).where('resource_id', '=', resourceId).execute();
  },

  async nameservers(db: Db, resourceId: number): Promise<string[]> {
    const rows = await db
      .selectFrom('domain_nameservers')
      .select('host')
      .where('resource_id', '=', resourceId)
      .orderBy('position')
      .execute();
    return rows.map((row) => row.host);
  },

  async expiry(db: Db, resourceId: number): Promise<number> {
    const row = await db
      .selectFrom('resources')
      .select('domain_expire_ts')
      .where('id', '=', resourceId)
      .executeTakeFirst();
    return Number(row?.domain_expire_ts ?? 0);
  },

  async setNameservers(db: Db, resourceId: number, hosts: string[]): Promise<void> {
    await db.deleteFrom('domain_nameservers').where('resource_id', '=', resourceId).execute();
    if (hosts.length === 0) return;
    await db
      .insertInto('domain_nameservers')
      .values(hosts.map((host, position) => ({ resource_id: resourceId, position, host })))
      .execute();
  },

  glueRecords(db: Db, resourceId: number) {
    return db
      .selectFrom('domain_glue_records')
      .selectAll()
      .where('resource_id', '=', resourceId)
      .orderBy('name')
      .execute();
  },

  findGlue(db: Db, resourceId: number, id: number) {
    return db
      .selectFrom('domain_glue_records')
      .selectAll()
      .where('resource_id', '=', resourceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  insertGlue(db: Db, row: { resource_id: number; name: string; ipv4: string; ipv6: string }) {
    return db.insertInto('domain_glue_records').values(row).execute();
  },

  updateGlue(db: Db, resourceId: number, id: number, set: { ipv4: string; ipv6: string }) {
    return db
      .updateTable('domain_glue_records')
      .set(set)
      .where('resource_id', '=', resourceId)
      .where('id', '=', id)
      .execute();
  },

  deleteGlue(db: Db, resourceId: number, id: number) {
    return db.deleteFrom('domain_glue_records').where('resource_id', '=', resourceId).where('id', '=', id).execute();
  },

  dsRecords(db: Db, resourceId: number) {
    return db.selectFrom('domain_ds_records').selectAll().where('resource_id', '=', resourceId).orderBy('id').execute();
  },

  findDs(db: Db, resourceId: number, id: number) {
    return db
      .selectFrom('domain_ds_records')
      .selectAll()
      .where('resource_id', '=', resourceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  insertDs(
    db: Db,
    row: { resource_id: number; keytag: number; algorithm: number; digest_type: number; digest: string },
  ) {
    return db.insertInto('domain_ds_records').values(row).returningAll().executeTakeFirstOrThrow();
  },

  deleteDs(db: Db, resourceId: number, id: number) {
    return db.deleteFrom('domain_ds_records').where('resource_id', '=', resourceId).where('id', '=', id).execute();
  },

  /** The four roles with their contact rows. */
  contacts(db: Db, resourceId: number) {
    return db
      .selectFrom('domain_contacts as dc')
      .innerJoin('contacts as c', 'c.id', 'dc.contact_id')
      .selectAll('c')
      .select('dc.role')
      .where('dc.resource_id', '=', resourceId)
      .execute();
  },

  async insertContact(db: Db, row: NewContact): Promise<number> {
    const inserted = await db.insertInto('contacts').values(row).returning('id').executeTakeFirstOrThrow();
    return inserted.id;
  },

  updateContact(db: Db, accountId: number, id: number, set: Partial<NewContact>) {
    return db.updateTable('contacts').set(set).where('account_id', '=', accountId).where('id', '=', id).execute();
  },

  async assignContact(db: Db, resourceId: number, roles: string[], contactId: number): Promise<void> {
    for (const role of roles) {
      await db
        .insertInto('domain_contacts')
        .values({ resource_id: resourceId, role, contact_id: contactId })
        .onConflict((oc) => oc.columns(['resource_id', 'role']).doUpdateSet({ contact_id: contactId }))
        .execute();
    }
  },

  /**
   * The address and alias records (A, AAAA, CNAME, ANAME) any of the panel's zones holds at a full
   * name: what the embedded resolver answers from when the panel's zones are the authority.
   */
  ownZoneRecords(db: Db, name: string) {
    return db
      .selectFrom('dns_records as d')
      .innerJoin('resources as r', 'r.id', 'd.service_id')
      .select(['d.type', 'd.value'])
      .where('d.type', 'in', ['A', 'AAAA', 'CNAME', 'ANAME'])
      .where((eb) =>
        eb.or([
          eb.and([eb('d.zona', '=', ''), eb('r.reference_punycode', '=', name)]),
          eb(sql<string>`d.zona || '.' || r.reference_punycode`, '=', name),
        ]),
      )
      .limit(20)
      .execute();
  },
};
