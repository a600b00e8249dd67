import type { Db } from '../../db/database.ts';

/** The statistics' rows (migration 0048) and what the refresh reads of a service. */
export const statsRepository = {
  /** What tells a request's site: the domain, its sites' and redirections' subdomains. */
  async serviceSites(db: Db, serviceId: number) {
    const service = await db
      .selectFrom('resources')
      .select(['reference_punycode as domain'])
      .where('id', '=', serviceId)
      .where('has_service', '=', 1)
      .executeTakeFirst();
    if (!service) return undefined;
    const sites = await db.selectFrom('web_sites').select('subdomain').where('service_id', '=', serviceId).execute();
    const redirections = await db
      .selectFrom('web_redirections')
      .select('subdomain')
      .where('service_id', '=', serviceId)
      .execute();
    return {
      domain: service.domain,
      sites: sites.map((row) => row.subdomain),
      redirections: redirections.map((row) => row.subdomain),
    };
  },

  /** The hosting services the round refreshes: every one that is not suspended. */
  async refreshable(db: Db): Promise<number[]> {
    const rows = await db
      .selectFrom('resources')
      .select('id')
      .where('has_service', '=', 1)
      .where('suspended_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  },

  /** A site's month, written anew (one row per service, site and month). */
  async putSummary(db: Db, row: { serviceId: number; host: string; month: string; summary: string; now: number }) {
    await db
      .insertInto('site_stats')
      .values({
        service_id: row.serviceId,
        host: row.host,
        month: row.month,
        summary: row.summary,
        updated_at: row.now,
      })
      .onConflict((conflict) =>
        conflict.columns(['service_id', 'host', 'month']).doUpdateSet({ summary: row.summary, updated_at: row.now }),
      )
      .execute();
  },

  async markRefreshed(db: Db, serviceId: number, now: number) {
    await db
      .insertInto('stats_refreshes')
      .values({ service_id: serviceId, refreshed_at: now })
      .onConflict((conflict) => conflict.column('service_id').doUpdateSet({ refreshed_at: now }))
      .execute();
  },

  async refreshedAt(db: Db, serviceId: number): Promise<number> {
    const row = await db
      .selectFrom('stats_refreshes')
      .select('refreshed_at')
      .where('service_id', '=', serviceId)
      .executeTakeFirst();
    return row ? Number(row.refreshed_at) : 0;
  },

  /** The service's months with statistics, by site, newest month first. */
  months(db: Db, serviceId: number) {
    return db
      .selectFrom('site_stats')
      .select(['host', 'month'])
      .where('service_id', '=', serviceId)
      .orderBy('host')
      .orderBy('month', 'desc')
      .execute();
  },

  /** Every month of one site with its summary, oldest first. */
  siteMonths(db: Db, serviceId: number, host: string) {
    return db
      .selectFrom('site_stats')
      .select(['month', 'summary', 'updated_at'])
      .where('service_id', '=', serviceId)
      .where('host', '=', host)
      .orderBy('month')
      .execute();
  },
};
