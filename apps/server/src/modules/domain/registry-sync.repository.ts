import type { Db } from '../../db/database.ts';

/** The queries of `registry sync`: the panel's copy of every registered domain, and the writes that import. */
export const registrySyncRepository = {
  /** Every resource with a domain (the ones a registry holds), in id order. */
  domainResources(db: Db) {
    return db
      .selectFrom('resources')
      .select(['id', 'account_id', 'reference_punycode', 'has_service', 'domain_expire_ts'])
      .where('has_domain', '=', 1)
      .orderBy('id')
      .execute();
  },

  setExpiry(db: Db, resourceId: number, expireTs: number) {
    return db.updateTable('resources').set({ domain_expire_ts: expireTs }).where('id', '=', resourceId).execute();
  },
};
