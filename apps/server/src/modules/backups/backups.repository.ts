import type { Db } from '../../db/database.ts';

export const backupsRepository = {
  /** Hosting services (all, or the one with this id or reference), the ones a backup covers. */
  services(db: Db, only?: { id?: number; reference?: string }) {
    let query = db
      .selectFrom('resources')
      .select(['id', 'reference', 'reference_punycode'])
      .where('has_service', '=', 1)
      .orderBy('id');
    if (only?.id !== undefined) query = query.where('id', '=', only.id);
    if (only?.reference !== undefined) {
      const reference = only.reference;
      query = query.where((eb) => eb.or([eb('reference', '=', reference), eb('reference_punycode', '=', reference)]));
    }
    return query.execute();
  },

  /**
   * The panel's own settings of a service, as a backup keeps them: what the customer set up, and
   * no secret in clear (passwords and private keys are not taken at all).
   */
  async settings(db: Db, serviceId: number) {
    const [web, sites, redirections, ftp, mailboxes, aliases, databases] = await Promise.all([
      db
        .selectFrom('web_settings')
        .select(['php_version', 'parking', 'builder_site'])
        .where('service_id', '=', serviceId)
        .executeTakeFirst(),
      db
        .selectFrom('web_sites')
        .select(['subdomain', 'folder', 'ssl_active', 'cert_pem', 'cert_chain_pem'])
        .where('service_id', '=', serviceId)
        .orderBy('subdomain')
        .execute(),
      db
        .selectFrom('web_redirections')
        .select(['subdomain', 'path', 'url', 'type', 'iframe_title', 'iframe_description', 'iframe_keywords'])
        .where('service_id', '=', serviceId)
        .orderBy('subdomain')
        .execute(),
      db
        .selectFrom('ftp_accounts')
        .select(['login', 'folder'])
        .where('service_id', '=', serviceId)
        .orderBy('login')
        .execute(),
      db
        .selectFrom('mailboxes')
        .select(['local_part', 'quota_bytes'])
        .where('service_id', '=', serviceId)
        .orderBy('local_part')
        .execute(),
      db
        .selectFrom('mail_aliases')
        .select(['local_part', 'targets'])
        .where('service_id', '=', serviceId)
        .orderBy('local_part')
        .execute(),
      db
        .selectFrom('hosted_databases')
        .select(['name', 'external_access'])
        .where('service_id', '=', serviceId)
        .orderBy('name')
        .execute(),
    ]);
    return { web: web ?? null, sites, redirections, ftp, mailboxes, aliases, databases };
  },
};
