import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsAny, type ListPage, orderOf } from '../../db/list-query.ts';

/** One row of the mail view's list: an account or an alias, in the columns both have. */
export interface MailListRow {
  kind: 'account' | 'alias';
  id: number;
  local_part: string;
  targets: string;
  quota_bytes: number;
  eliminable: number;
}

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
  /**
   * One page of the accounts and aliases of a service in one list (either kind may be left out),
   * sorted and filtered on the address as shown: 'local@domain', or the domain alone for an
   * alias of every address. An account comes before an alias of the same address.
   */
  async mailPage(
    db: Db,
    serviceId: number,
    domain: string,
    kinds: { accounts: boolean; aliases: boolean },
    page: ListPage<'name'>,
  ): Promise<{ rows: MailListRow[]; total: number }> {
    if (!kinds.accounts && !kinds.aliases) return { rows: [], total: 0 };
    const accounts = db
      .selectFrom('mailboxes')
      .select([
        sql<'account' | 'alias'>`'account'`.as('kind'),
        'id',
        'local_part',
        sql<string>`''`.as('targets'),
        'quota_bytes',
        'eliminable',
      ])
      .where('service_id', '=', serviceId);
    const aliases = db
      .selectFrom('mail_aliases')
      .select([
        sql<'account' | 'alias'>`'alias'`.as('kind'),
        'id',
        'local_part',
        'targets',
        sql<number>`0`.as('quota_bytes'),
        'eliminable',
      ])
      .where('service_id', '=', serviceId);
    const both = kinds.accounts && kinds.aliases ? accounts.unionAll(aliases) : kinds.accounts ? accounts : aliases;
    const name = sql`(case when kind = 'alias' and local_part = '' then ${domain} else local_part || '@' || ${domain} end)`;
    let base = db.selectFrom(both.as('m'));
    if (page.filter) base = base.where(containsAny([name], page.filter));
    const order = orderOf({ name: [sql`lower(${name})`, sql`kind`] }, page);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy(order).limit(page.limit).offset(page.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
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
  /** Many mailboxes in one statement (the scale data set inserts them 500 at a time, in a transaction). */
  insertMailboxes(
    db: Db,
    rows: { service_id: number; local_part: string; password_hash: string; quota_bytes: number; created_at: number }[],
  ) {
    return db.insertInto('mailboxes').values(rows).execute();
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
  /** Many aliases in one statement (the scale data set inserts them 500 at a time, in a transaction). */
  insertAliases(db: Db, rows: { service_id: number; local_part: string; targets: string; created_at: number }[]) {
    return db.insertInto('mail_aliases').values(rows).execute();
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
