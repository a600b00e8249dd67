import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsAny, type ListPage, orderOf } from '../../db/list-query.ts';

/** The host a row answers on, in SQL: '' is the main domain (hostOf in hosting-input.ts). */
const hostSql = (domain: string): RawBuilder<string> =>
  sql`(case when subdomain = '' then ${domain} else subdomain || '.' || ${domain} end)`;

/** Every query of the web side of a hosting service; each is scoped by the service's id. */
export const hostingRepository = {
  /** Every hosting service of every account (for `web sync`), in id order. */
  allServices(db: Db) {
    return db
      .selectFrom('resources')
      .select(['id', 'reference_punycode as domain'])
      .where('has_service', '=', 1)
      .orderBy('id')
      .execute();
  },
  /** Whether the provider suspended the service (its sites then answer the "suspended" page). */
  async suspended(db: Db, serviceId: number): Promise<boolean> {
    const row = await db.selectFrom('resources').select('suspended_at').where('id', '=', serviceId).executeTakeFirst();
    return row !== undefined && row.suspended_at !== null;
  },
  settings(db: Db, serviceId: number) {
    return db.selectFrom('web_settings').selectAll().where('service_id', '=', serviceId).executeTakeFirst();
  },
  insertSettings(db: Db, serviceId: number, now: number) {
    return db
      .insertInto('web_settings')
      .values({ service_id: serviceId, updated_at: now })
      .onConflict((conflict) => conflict.column('service_id').doNothing())
      .execute();
  },
  updateSettings(
    db: Db,
    serviceId: number,
    set: { php_version?: string; parking?: number; builder_site?: string; updated_at: number },
  ) {
    return db.updateTable('web_settings').set(set).where('service_id', '=', serviceId).execute();
  },

  /** The service's sites; with `hosts`, only those of these subdomains. */
  sites(db: Db, serviceId: number, hosts?: readonly string[]) {
    let query = db.selectFrom('web_sites').selectAll().where('service_id', '=', serviceId);
    // '.' is no subdomain: an empty list of hosts selects nothing.
    if (hosts) query = query.where('subdomain', 'in', hosts.length > 0 ? [...hosts] : ['.']);
    return query.orderBy('subdomain').orderBy('id').execute();
  },
  /** One page of the sites whose host or folder (as shown, from "/") contains the filter; the main domain first. */
  async sitesPage(db: Db, serviceId: number, domain: string, page: ListPage<'host' | 'folder'>) {
    let base = db.selectFrom('web_sites').where('service_id', '=', serviceId);
    if (page.filter) base = base.where(containsAny([hostSql(domain), sql`'/' || folder`], page.filter));
    const order = orderOf(
      {
        host: sql`lower(case when subdomain = '' then '' else subdomain || '.' end)`,
        folder: sql`lower(folder)`,
      },
      page,
    );
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy(order).limit(page.limit).offset(page.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
  site(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('web_sites')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  siteBySubdomain(db: Db, serviceId: number, subdomain: string) {
    return db
      .selectFrom('web_sites')
      .select(['id', 'folder'])
      .where('service_id', '=', serviceId)
      .where('subdomain', '=', subdomain)
      .executeTakeFirst();
  },
  insertSite(
    db: Db,
    row: {
      service_id: number;
      subdomain: string;
      folder: string;
      ssl_active: number;
      cert_pem: string;
      cert_chain_pem: string;
      key_sealed: string;
      eliminable: number;
      created_at: number;
    },
  ) {
    return db.insertInto('web_sites').values(row).returning('id').executeTakeFirstOrThrow();
  },
  /** Many sites in one statement (the scale data set inserts them 500 at a time, in a transaction). */
  insertSites(
    db: Db,
    rows: { service_id: number; subdomain: string; folder: string; eliminable: number; created_at: number }[],
  ) {
    return db.insertInto('web_sites').values(rows).execute();
  },
  updateSite(
    db: Db,
    serviceId: number,
    id: number,
    set: { folder?: string; ssl_active?: number; cert_pem?: string; cert_chain_pem?: string; key_sealed?: string },
  ) {
    return db.updateTable('web_sites').set(set).where('service_id', '=', serviceId).where('id', '=', id).execute();
  },
  deleteSite(db: Db, serviceId: number, id: number) {
    return db.deleteFrom('web_sites').where('service_id', '=', serviceId).where('id', '=', id).execute();
  },

  /** The service's redirections; with `hosts`, only those of these subdomains. */
  redirections(db: Db, serviceId: number, hosts?: readonly string[]) {
    let query = db.selectFrom('web_redirections').selectAll().where('service_id', '=', serviceId);
    // '.' is no subdomain: an empty list of hosts selects nothing.
    if (hosts) query = query.where('subdomain', 'in', hosts.length > 0 ? [...hosts] : ['.']);
    return query.orderBy('subdomain').orderBy('path').execute();
  },
  /** One page of the redirections whose origin (host and path), destination or type contains the filter. */
  async redirectionsPage(db: Db, serviceId: number, domain: string, page: ListPage<'origin' | 'url' | 'redirType'>) {
    const origin = sql`(${hostSql(domain)} || case when path = '/' then '' else path end)`;
    let base = db.selectFrom('web_redirections').where('service_id', '=', serviceId);
    if (page.filter) base = base.where(containsAny([origin, sql`url`, sql`type`], page.filter));
    const order = orderOf({ origin: sql`lower(${origin})`, url: sql`lower(url)`, redirType: sql`type` }, page);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy(order).limit(page.limit).offset(page.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
  redirection(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('web_redirections')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  redirectionAt(db: Db, serviceId: number, subdomain: string, path: string) {
    return db
      .selectFrom('web_redirections')
      .select('id')
      .where('service_id', '=', serviceId)
      .where('subdomain', '=', subdomain)
      .where('path', '=', path)
      .executeTakeFirst();
  },
  insertRedirection(
    db: Db,
    row: {
      service_id: number;
      subdomain: string;
      path: string;
      url: string;
      type: string;
      iframe_title: string;
      iframe_description: string;
      iframe_keywords: string;
      created_at: number;
    },
  ) {
    return db.insertInto('web_redirections').values(row).returning('id').executeTakeFirstOrThrow();
  },
  updateRedirection(
    db: Db,
    serviceId: number,
    id: number,
    set: { url: string; type: string; iframe_title: string; iframe_description: string; iframe_keywords: string },
  ) {
    return db
      .updateTable('web_redirections')
      .set(set)
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .execute();
  },
  deleteRedirection(db: Db, serviceId: number, id: number) {
    return db.deleteFrom('web_redirections').where('service_id', '=', serviceId).where('id', '=', id).execute();
  },

  /** The service's database names, for the overview's database usage. */
  async databaseNames(db: Db, serviceId: number): Promise<string[]> {
    const rows = await db.selectFrom('hosted_databases').select('name').where('service_id', '=', serviceId).execute();
    return rows.map((row) => row.name);
  },
};
