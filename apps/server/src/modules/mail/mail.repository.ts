import type { Db } from '../../db/database.ts';

export const mailRepository = {
  mailboxes(db: Db, serviceId: number) {
    return db.selectFrom('mailboxes').selectAll().where('service_id', '=', serviceId).orderBy('local_part').execute();
  },
  /** Every mailbox of every service, mail on or off, as its folder is named under the mail root. */
  async allAddresses(db: Db): Promise<{ domain: string; localPart: string }[]> {
    const rows = await db
      .selectFrom('mailboxes as m')
      .innerJoin('resources as r', 'r.id', 'm.service_id')
      .select(['r.reference_punycode as domain', 'm.local_part as localPart'])
      .execute();
    return rows;
  },
  findMailbox(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('mailboxes')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  insertMailbox(
    db: Db,
    row: { service_id: number; local_part: string; password_hash: string; quota_bytes: number; created_at: number },
  ) {
    return db.insertInto('mailboxes').values(row).returningAll().executeTakeFirstOrThrow();
  },
  setPassword(db: Db, serviceId: number, id: number, passwordHash: string) {
    return db
      .updateTable('mailboxes')
      .set({ password_hash: passwordHash })
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .execute();
  },
  deleteMailbox(db: Db, serviceId: number, id: number) {
    return db.deleteFrom('mailboxes').where('service_id', '=', serviceId).where('id', '=', id).execute();
  },
  aliases(db: Db, serviceId: number) {
    return db
      .selectFrom('mail_aliases')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('local_part')
      .execute();
  },
  findAlias(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('mail_aliases')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  insertAlias(db: Db, row: { service_id: number; local_part: string; targets: string; created_at: number }) {
    return db.insertInto('mail_aliases').values(row).returningAll().executeTakeFirstOrThrow();
  },
  setTargets(db: Db, serviceId: number, id: number, targets: string) {
    return db
      .updateTable('mail_aliases')
      .set({ targets })
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  deleteAlias(db: Db, serviceId: number, id: number) {
    return db.deleteFrom('mail_aliases').where('service_id', '=', serviceId).where('id', '=', id).execute();
  },
  /** Whether an address is taken by a mailbox or an alias of the service. */
  async addressTaken(db: Db, serviceId: number, localPart: string): Promise<boolean> {
    const [box, alias] = await Promise.all([
      db
        .selectFrom('mailboxes')
        .select('id')
        .where('service_id', '=', serviceId)
        .where('local_part', '=', localPart)
        .executeTakeFirst(),
      db
        .selectFrom('mail_aliases')
        .select('id')
        .where('service_id', '=', serviceId)
        .where('local_part', '=', localPart)
        .executeTakeFirst(),
    ]);
    return Boolean(box || alias);
  },
  /** The full address of a mailbox, for the WebMail sign-on. */
  async mailboxAddress(db: Db, mailboxId: number): Promise<string | undefined> {
    const row = await db
      .selectFrom('mailboxes as m')
      .innerJoin('resources as r', 'r.id', 'm.service_id')
      .select(['m.local_part', 'r.reference_punycode'])
      .where('m.id', '=', mailboxId)
      .executeTakeFirst();
    return row ? `${row.local_part}@${row.reference_punycode}` : undefined;
  },
};
