import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SiteCertificateTable } from '../../db/schema.ts';

/** The automatic certificates of sites and the panel's ACME accounts. */
export const certificatesRepository = {
  account(db: Db, directoryUrl: string, email: string) {
    return db
      .selectFrom('acme_accounts')
      .select(['id', 'key_sealed'])
      .where('directory_url', '=', directoryUrl)
      .where('email', '=', email)
      .executeTakeFirst();
  },
  /** Records an account key unless another instance did first; the caller reads back the winner. */
  insertAccount(db: Db, row: { directory_url: string; email: string; key_sealed: string; created_at: number }) {
    return db
      .insertInto('acme_accounts')
      .values(row)
      .onConflict((conflict) => conflict.columns(['directory_url', 'email']).doNothing())
      .execute();
  },

  /** The service's domain in punycode (an order runs without a request, so without an actor). */
  async serviceDomain(db: Db, serviceId: number): Promise<string | undefined> {
    const row = await db
      .selectFrom('resources')
      .select('reference_punycode')
      .where('id', '=', serviceId)
      .executeTakeFirst();
    return row?.reference_punycode;
  },

  /** The ACME contact of the brand the service's account belongs to ('' : none of its own). */
  async brandAcmeEmail(db: Db, serviceId: number): Promise<string> {
    const row = await db
      .selectFrom('resources')
      .innerJoin('accounts', 'accounts.id', 'resources.account_id')
      .innerJoin('brands', 'brands.id', 'accounts.brand_id')
      .select('brands.acme_email')
      .where('resources.id', '=', serviceId)
      .executeTakeFirst();
    return row?.acme_email ?? '';
  },

  ofSite(db: Db, siteId: number) {
    return db.selectFrom('site_certificates').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  },
  ofService(db: Db, serviceId: number) {
    return db.selectFrom('site_certificates').selectAll().where('service_id', '=', serviceId).execute();
  },
  /** Every automatic certificate (the CLI's list), with its site's host parts. */
  all(db: Db) {
    return db
      .selectFrom('site_certificates')
      .innerJoin('web_sites', 'web_sites.id', 'site_certificates.site_id')
      .innerJoin('resources', 'resources.id', 'site_certificates.service_id')
      .select([
        'site_certificates.site_id',
        'site_certificates.service_id',
        'site_certificates.state',
        'site_certificates.error_key',
        'site_certificates.expires_at',
        'web_sites.subdomain',
        'resources.reference_punycode as domain',
      ])
      .orderBy('site_certificates.site_id')
      .execute();
  },
  /**
   * Certificates to renew: installed ones within `renewBefore` of their end, and failed ones whose
   * last try is older than `retryBefore` (a failure is not retried every check).
   */
  due(db: Db, now: number, renewBefore: number, retryBefore: number) {
    return db
      .selectFrom('site_certificates')
      .select(['site_id', 'service_id'])
      .where((where) =>
        where.or([
          where.and([where('state', '=', 'installed'), where('expires_at', '<=', now + renewBefore)]),
          where.and([where('state', '=', 'failed'), where('updated_at', '<=', retryBefore)]),
        ]),
      )
      .orderBy('expires_at')
      .execute();
  },
  upsert(db: Db, row: Insertable<SiteCertificateTable>) {
    return db
      .insertInto('site_certificates')
      .values(row)
      .onConflict((conflict) =>
        conflict.column('site_id').doUpdateSet({
          challenge: row.challenge,
          wildcard: row.wildcard ?? 0,
          state: row.state,
          error_key: '',
          error_detail: '',
          updated_at: row.updated_at,
        }),
      )
      .execute();
  },
  update(db: Db, siteId: number, set: Updateable<SiteCertificateTable>) {
    return db.updateTable('site_certificates').set(set).where('site_id', '=', siteId).execute();
  },
  remove(db: Db, siteId: number) {
    return db.deleteFrom('site_certificates').where('site_id', '=', siteId).execute();
  },
};
