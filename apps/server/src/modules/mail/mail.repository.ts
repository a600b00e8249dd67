import { type Expression, type Insertable, type SqlBool, sql } from 'kysely';
import { atomically, type Db } from '../../db/database.ts';
import { containsAny, type ListPage, orderOf } from '../../db/list-query.ts';
import type { MailboxRulesTable } from '../../db/schema.ts';

type MailCount = 'mailboxes' | 'aliases';

/** Adds `by` (negative: takes away) to a count of each service in `perService` (service id → rows). */
async function addToCounts(db: Db, which: MailCount, perService: Map<number, number>) {
  for (const [serviceId, by] of perService) {
    if (by === 0) continue;
    await db
      .insertInto('mail_counts')
      .values({ service_id: serviceId, mailboxes: 0, aliases: 0, [which]: by })
      .onConflict((conflict) =>
        conflict.column('service_id').doUpdateSet({ [which]: sql<number>`mail_counts.${sql.ref(which)} + ${by}` }),
      )
      .execute();
  }
}

function perService(rows: { service_id: number }[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const row of rows) counts.set(row.service_id, (counts.get(row.service_id) ?? 0) + 1);
  return counts;
}

/** One row of the mail view's list: an account or an alias, in the columns both have. */
export interface MailListRow {
  kind: 'account' | 'alias';
  id: number;
  local_part: string;
  targets: string;
  quota_bytes: number;
  eliminable: number;
}

/**
 * The mail view's sort key of a new row (migration 0016 wrote the existing ones the same way): the
 * address as shown, lower-cased by the database as the list's filter and order always did; the
 * domain alone for an alias of every address. A service's domain never changes, nor does a row's
 * local part, so the key is written once.
 */
function sortKeyOf(row: { service_id: number; local_part: string }, kind: 'account' | 'alias' = 'account') {
  const domain = sql<string>`(select r.reference_punycode from resources r where r.id = ${row.service_id})`;
  return kind === 'alias' && row.local_part === ''
    ? sql<string>`lower(${domain})`
    : sql<string>`lower(cast(${row.local_part} as varchar(64)) || '@' || ${domain})`;
}

export const mailRepository = {
  mailboxes(db: Db, serviceId: number) {
    return db.selectFrom('mailboxes').selectAll().where('service_id', '=', serviceId).orderBy('local_part').execute();
  },
  /** Whether a service with mail on has this domain (a mail move's ends check it before touching its folder). */
  async hasMailDomain(db: Db, domain: string): Promise<boolean> {
    const row = await db
      .selectFrom('resources')
      .select('id')
      .where('reference_punycode', '=', domain)
      .where('has_mail', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  },
  /** Every mailbox of every service, mail on or off, as its folder is named under the mail root. */
  async allAddresses(db: Db): Promise<{ serviceId: number; domain: string; localPart: string }[]> {
    const rows = await db
      .selectFrom('mailboxes as m')
      .innerJoin('resources as r', 'r.id', 'm.service_id')
      .select(['m.service_id as serviceId', 'r.reference_punycode as domain', 'm.local_part as localPart'])
      .execute();
    return rows;
  },
  /**
   * One page of the accounts and aliases of a service in one list (either kind may be left out),
   * sorted and filtered on the address as shown, in lower case ('local@domain', or the domain
   * alone for an alias of every address: the rows' `sort_key`). An account comes before an alias
   * of the same address. Each table hands only its first offset + limit rows, in the order of its
   * index on (service_id, sort_key, id), and only those are merged: a page costs what it returns
   * instead of a sort of every row of the service.
   */
  async mailPage(
    db: Db,
    serviceId: number,
    kinds: { accounts: boolean; aliases: boolean },
    page: ListPage<'name'>,
  ): Promise<{ rows: MailListRow[]; total: number }> {
    if (!kinds.accounts && !kinds.aliases) return { rows: [], total: 0 };
    // sort_key is already lower case; containsAny lowers it again, which changes nothing
    const matching = page.filter ? containsAny([sql`sort_key`], page.filter) : undefined;
    const byKey = orderOf({ name: sql`sort_key` }, page);
    const firstRows = page.offset + page.limit;
    const accounts = db
      .selectFrom('mailboxes')
      .select([
        sql<'account' | 'alias'>`'account'`.as('kind'),
        'id',
        'local_part',
        sql<string>`''`.as('targets'),
        'quota_bytes',
        'eliminable',
        'sort_key',
      ])
      .where('service_id', '=', serviceId)
      .$if(matching !== undefined, (qb) => qb.where(matching as Expression<SqlBool>))
      .orderBy(byKey)
      .limit(firstRows);
    const aliases = db
      .selectFrom('mail_aliases')
      .select([
        sql<'account' | 'alias'>`'alias'`.as('kind'),
        'id',
        'local_part',
        'targets',
        sql<number>`0`.as('quota_bytes'),
        'eliminable',
        'sort_key',
      ])
      .where('service_id', '=', serviceId)
      .$if(matching !== undefined, (qb) => qb.where(matching as Expression<SqlBool>))
      .orderBy(byKey)
      .limit(firstRows);
    // each side in a subquery: SQLite refuses ORDER BY and LIMIT on a UNION's own members
    const firstAccounts = db.selectFrom(accounts.as('a')).selectAll();
    const firstAliases = db.selectFrom(aliases.as('l')).selectAll();
    const both =
      kinds.accounts && kinds.aliases
        ? firstAccounts.unionAll(firstAliases)
        : kinds.accounts
          ? firstAccounts
          : firstAliases;
    // Unfiltered, the total is the service's kept counts (one row); filtered, the matching rows.
    const kept = matching
      ? undefined
      : db
          .selectFrom('mail_counts')
          .select(['mailboxes', 'aliases'])
          .where('service_id', '=', serviceId)
          .executeTakeFirst();
    const count = async (table: 'mailboxes' | 'mail_aliases') => {
      if (kept) {
        const row = await kept;
        return Number((table === 'mailboxes' ? row?.mailboxes : row?.aliases) ?? 0);
      }
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('service_id', '=', serviceId)
        .$if(matching !== undefined, (qb) => qb.where(matching as Expression<SqlBool>))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const [rows, accountCount, aliasCount] = await Promise.all([
      db
        .selectFrom(both.as('m'))
        .select(['kind', 'id', 'local_part', 'targets', 'quota_bytes', 'eliminable'])
        .orderBy(orderOf({ name: [sql`sort_key`, sql`kind`] }, page))
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      kinds.accounts ? count('mailboxes') : 0,
      kinds.aliases ? count('mail_aliases') : 0,
    ]);
    return { rows, total: accountCount + aliasCount };
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
    return atomically(db, async (trx) => {
      const inserted = await trx
        .insertInto('mailboxes')
        .values({ ...row, sort_key: sortKeyOf(row) })
        .returningAll()
        .executeTakeFirstOrThrow();
      await addToCounts(trx, 'mailboxes', perService([row]));
      return inserted;
    });
  },
  /** Many mailboxes in one statement (the scale data set inserts them 500 at a time, in a transaction). */
  insertMailboxes(
    db: Db,
    rows: { service_id: number; local_part: string; password_hash: string; quota_bytes: number; created_at: number }[],
  ) {
    return atomically(db, async (trx) => {
      await trx
        .insertInto('mailboxes')
        .values(rows.map((row) => ({ ...row, sort_key: sortKeyOf(row) })))
        .execute();
      await addToCounts(trx, 'mailboxes', perService(rows));
    });
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
    return atomically(db, async (trx) => {
      const deleted = await trx
        .deleteFrom('mailboxes')
        .where('service_id', '=', serviceId)
        .where('id', '=', id)
        .executeTakeFirst();
      await addToCounts(trx, 'mailboxes', new Map([[serviceId, -Number(deleted.numDeletedRows)]]));
    });
  },
  setQuota(db: Db, serviceId: number, id: number, quotaBytes: number) {
    return db
      .updateTable('mailboxes')
      .set({ quota_bytes: quotaBytes })
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** The autoresponder and forwarding of a mailbox (none until first saved). */
  rules(db: Db, mailboxId: number) {
    return db.selectFrom('mailbox_rules').selectAll().where('mailbox_id', '=', mailboxId).executeTakeFirst();
  },
  /** What a list shows of these mailboxes' rules, in one query. */
  async rulesSummaries(db: Db, mailboxIds: number[]) {
    if (mailboxIds.length === 0) return [];
    return db
      .selectFrom('mailbox_rules')
      .select(['mailbox_id', 'autoreply', 'forward_targets'])
      .where('mailbox_id', 'in', mailboxIds)
      .execute();
  },
  /** Every mailbox's stored rules, by its address as under the mail root (for `mail sync`). */
  allRules(db: Db) {
    return db
      .selectFrom('mailbox_rules as x')
      .innerJoin('mailboxes as m', 'm.id', 'x.mailbox_id')
      .innerJoin('resources as r', 'r.id', 'm.service_id')
      .select(['r.reference_punycode as domain', 'm.local_part as localPart'])
      .select(['x.autoreply', 'x.subject', 'x.body', 'x.start_date', 'x.end_date', 'x.days'])
      .select(['x.forward_targets', 'x.keep_copy'])
      .execute();
  },
  saveRules(db: Db, row: Insertable<MailboxRulesTable>) {
    const { mailbox_id: _, ...changes } = row;
    return db
      .insertInto('mailbox_rules')
      .values(row)
      .onConflict((conflict) => conflict.column('mailbox_id').doUpdateSet(changes))
      .execute();
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
    return atomically(db, async (trx) => {
      const inserted = await trx
        .insertInto('mail_aliases')
        .values({ ...row, sort_key: sortKeyOf(row, 'alias') })
        .returningAll()
        .executeTakeFirstOrThrow();
      await addToCounts(trx, 'aliases', perService([row]));
      return inserted;
    });
  },
  /** Many aliases in one statement (the scale data set inserts them 500 at a time, in a transaction). */
  insertAliases(db: Db, rows: { service_id: number; local_part: string; targets: string; created_at: number }[]) {
    return atomically(db, async (trx) => {
      await trx
        .insertInto('mail_aliases')
        .values(rows.map((row) => ({ ...row, sort_key: sortKeyOf(row, 'alias') })))
        .execute();
      await addToCounts(trx, 'aliases', perService(rows));
    });
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
    return atomically(db, async (trx) => {
      const deleted = await trx
        .deleteFrom('mail_aliases')
        .where('service_id', '=', serviceId)
        .where('id', '=', id)
        .executeTakeFirst();
      await addToCounts(trx, 'aliases', new Map([[serviceId, -Number(deleted.numDeletedRows)]]));
    });
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
