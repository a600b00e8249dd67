import type { Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { MailCertificateTable } from '../../db/schema.ts';

/** The mail daemons' certificates, and what decides which ones there must be. */
export const mailCertificatesRepository = {
  all(db: Db) {
    return db.selectFrom('mail_certificates').selectAll().orderBy('name').execute();
  },
  one(db: Db, name: string) {
    return db.selectFrom('mail_certificates').selectAll().where('name', '=', name).executeTakeFirst();
  },
  /** Records a wanted certificate unless it is there (another instance may have done it first). */
  insertQueued(db: Db, name: string, hosts: string[], now: number) {
    return db
      .insertInto('mail_certificates')
      .values({ name, hosts: hosts.join(','), state: 'queued', updated_at: now })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
  },
  remove(db: Db, names: string[]) {
    if (names.length === 0) return Promise.resolve();
    return db.deleteFrom('mail_certificates').where('name', 'in', names).execute();
  },

  /** Every brand's SSL host ('' : none), and whether it is the default brand. */
  brands(db: Db) {
    return db.selectFrom('brands').select(['id', 'ssl_host', 'is_default']).orderBy('id').execute();
  },
  /** The mail domains (punycode) of the brand's accounts whose DNS zone the panel hosts. */
  async hostedMailDomains(db: Db, brandId: number): Promise<string[]> {
    const rows = await db
      .selectFrom('resources')
      .innerJoin('accounts', 'accounts.id', 'resources.account_id')
      .innerJoin('dns_zones', 'dns_zones.service_id', 'resources.id')
      .select('resources.reference_punycode as domain')
      .where('accounts.brand_id', '=', brandId)
      .where('resources.has_mail', '=', 1)
      .orderBy('resources.reference_punycode')
      .execute();
    return rows.map((row) => row.domain);
  },
  /** The zones the panel hosts (punycode), for the DNS-01 answers of mail host names. */
  async hostedZones(db: Db): Promise<string[]> {
    const rows = await db
      .selectFrom('dns_zones')
      .innerJoin('resources', 'resources.id', 'dns_zones.service_id')
      .select('resources.reference_punycode as zone')
      .execute();
    return rows.map((row) => row.zone);
  },

  /**
   * Certificates to order: installed ones within `renewBefore` of their end, failed ones whose
   * last try is older than `retryBefore`, and queued ones (newly wanted). One in the middle of an
   * order is its job's: the engine runs that job again if its instance dies.
   */
  due(db: Db, now: number, renewBefore: number, retryBefore: number) {
    return db
      .selectFrom('mail_certificates')
      .select('name')
      .where((where) =>
        where.or([
          where.and([where('state', '=', 'installed'), where('expires_at', '<=', now + renewBefore)]),
          where.and([where('state', '=', 'failed'), where('updated_at', '<=', retryBefore)]),
          where('state', '=', 'queued'),
        ]),
      )
      .orderBy('expires_at')
      .execute();
  },
  update(db: Db, name: string, set: Updateable<MailCertificateTable>) {
    return db.updateTable('mail_certificates').set(set).where('name', '=', name).execute();
  },
};
