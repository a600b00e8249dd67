import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsAny, type ListPage, orderOf } from '../../db/list-query.ts';
import { secondFactorColumn } from '../../db/user-second-factor.ts';

/** What the console reads across every account: accounts, their users, the activity log. */
export const consoleOversightRepository = {
  /** One page of the accounts whose domain or brand contains the filter, with their counts. */
  async accounts(db: Db, page: ListPage<'domain' | 'brand'>) {
    let base = db.selectFrom('accounts as a').innerJoin('brands as b', 'b.id', 'a.brand_id');
    if (page.filter) base = base.where(containsAny([sql`a.domain_name`, sql`b.slug`], page.filter));
    const order = orderOf({ domain: sql`a.domain_name`, brand: sql`b.slug` }, page, sql`a.id`);
    const [rows, count] = await Promise.all([
      base
        .select((eb) => [
          'a.id',
          'a.domain_name as domain',
          'b.slug as brand',
          'a.created_at',
          eb
            .selectFrom('resources as r')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('r.account_id', '=', 'a.id')
            .where('r.has_service', '=', 1)
            .as('services'),
          eb
            .selectFrom('users as u')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('u.account_id', '=', 'a.id')
            .as('users'),
        ])
        .orderBy(order)
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },

  /** An account's users with whether they have a second factor (an app enabled, or a passkey). */
  users(db: Db, domain: string) {
    return db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select((eb) => [
        'u.username',
        'u.email',
        'u.last_login_at',
        'u.manage_users',
        'u.disabled_at',
        secondFactorColumn(eb as never),
      ])
      .where('a.domain_name', '=', domain)
      .orderBy('u.username')
      .execute();
  },

  async accountExists(db: Db, domain: string): Promise<boolean> {
    return Boolean(await db.selectFrom('accounts').select('id').where('domain_name', '=', domain).executeTakeFirst());
  },

  /** One page of every account's activity, newest first; the filter looks in account, user, area and target. */
  async activity(db: Db, filter: string, offset: number, limit: number) {
    let base = db
      .selectFrom('activity_log as e')
      .innerJoin('accounts as a', 'a.id', 'e.account_id')
      .leftJoin('resources as r', 'r.id', 'e.resource_id');
    if (filter)
      base = base.where(
        containsAny([sql`a.domain_name`, sql`e.username`, sql`e.area`, sql`e.action`, sql`e.target`], filter),
      );
    const [rows, count] = await Promise.all([
      base
        .select([
          'e.id',
          'e.at',
          'a.domain_name as account',
          'e.username',
          'e.ip',
          'e.via',
          'r.reference',
          'e.area',
          'e.action',
          'e.target',
        ])
        .orderBy('e.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },

  outbox(db: Db, unsentOnly: boolean, limit: number) {
    let query = db
      .selectFrom('outbox')
      .select(['id', 'kind', 'to_address', 'subject', 'created_at', 'sent_at', 'error'])
      .orderBy('id', 'desc')
      .limit(limit);
    if (unsentOnly) query = query.where('sent_at', 'is', null);
    return query.execute();
  },
};
