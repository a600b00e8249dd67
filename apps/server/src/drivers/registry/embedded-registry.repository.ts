import type { Db } from '../../db/database.ts';

/** The embedded registry's reads: the panel database is its registry. */
export const embeddedRegistryRepository = {
  domain(db: Db, domain: string) {
    return db
      .selectFrom('domains as d')
      .innerJoin('resources as r', 'r.id', 'd.resource_id')
      .select([
        'd.resource_id',
        'd.blocked',
        'd.transfer_block',
        'd.whois_privacy',
        'd.auth_type',
        'd.auth_secret',
        'r.domain_expire_ts',
      ])
      .where('r.reference_punycode', '=', domain)
      .executeTakeFirst();
  },
  nameservers(db: Db, resourceId: number) {
    return db
      .selectFrom('domain_nameservers')
      .select('host')
      .where('resource_id', '=', resourceId)
      .orderBy('position')
      .execute();
  },
};
