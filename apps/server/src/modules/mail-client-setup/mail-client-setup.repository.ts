import type { Db } from '../../db/database.ts';

export const mailClientSetupRepository = {
  /**
   * The brand a hosted mail domain is set up under: the brand of the account owning the service
   * with mail on (the same rows Postfix's mail_domains_view lists). The oldest service wins if a
   * domain were ever hosted twice. Nothing about its mailboxes is read.
   */
  mailDomain(db: Db, domain: string) {
    return db
      .selectFrom('resources as r')
      .innerJoin('accounts as a', 'a.id', 'r.account_id')
      .innerJoin('brands as b', 'b.id', 'a.brand_id')
      .select(['r.id as serviceId', 'b.ssl_host as sslHost', 'b.company as company'])
      .where('r.reference_punycode', '=', domain)
      .where('r.has_mail', '=', 1)
      .orderBy('r.id')
      .limit(1)
      .executeTakeFirst();
  },

  /** A mailbox of the service (already authorized by the caller). */
  mailbox(db: Db, serviceId: number, mailboxId: number) {
    return db
      .selectFrom('mailboxes')
      .select(['id', 'local_part'])
      .where('service_id', '=', serviceId)
      .where('id', '=', mailboxId)
      .executeTakeFirst();
  },
};
