import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsAny, type ListPage, orderOf } from '../../db/list-query.ts';

export type ServiceSort = 'domain' | 'account' | 'plan' | 'state';

/** The console's list of every hosting service, with its account, brand, plan and state. */
export const consoleServicesRepository = {
  /** One page of the services whose domain, account, plan or brand contains the filter (or the one service `only`). */
  async page(db: Db, page: ListPage<ServiceSort>, only?: number) {
    let base = db
      .selectFrom('resources as r')
      .innerJoin('accounts as a', 'a.id', 'r.account_id')
      .innerJoin('brands as b', 'b.id', 'a.brand_id')
      .leftJoin('plans as p', 'p.id', 'r.plan_id')
      .where('r.has_service', '=', 1);
    if (only !== undefined) base = base.where('r.id', '=', only);
    if (page.filter)
      base = base.where(containsAny([sql`r.reference`, sql`a.domain_name`, sql`p.name`, sql`b.slug`], page.filter));
    const order = orderOf(
      {
        domain: sql`r.reference`,
        account: sql`a.domain_name`,
        plan: sql`p.name`,
        // active ones first, then by when they were suspended
        state: sql`coalesce(r.suspended_at, 0)`,
      },
      page,
      sql`r.id`,
    );
    const [rows, count] = await Promise.all([
      base
        .select([
          'r.id',
          'r.reference_punycode as domain',
          'r.suspended_at',
          'r.suspended_reason',
          'a.domain_name as account',
          'b.slug as brand',
          'p.name as plan',
        ])
        .orderBy(order)
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
};
