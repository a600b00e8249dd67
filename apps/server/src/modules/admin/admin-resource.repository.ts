import type { PermissionKey, PermissionLevel } from '@panel247/contract/constants';
import type { Db } from '../../db/database.ts';
import type { NewResource } from '../../db/schema.ts';

const RESOURCE_HEAD = ['id', 'account_id', 'reference_punycode', 'has_service'] as const;

/** Resources (domains, hosting and mail services) and who may use them, as the provider's CLI manages them. */
export const adminResourceRepository = {
  byReference(db: Db, reference: string) {
    return db.selectFrom('resources').select(RESOURCE_HEAD).where('reference', '=', reference).executeTakeFirst();
  },

  insert(db: Db, row: NewResource) {
    return db.insertInto('resources').values(row).returning(RESOURCE_HEAD).executeTakeFirstOrThrow();
  },

  /** Inserts the rows whose reference is free and answers the ids of those that went in. */
  insertSkippingTaken(db: Db, rows: NewResource[]) {
    return db
      .insertInto('resources')
      .values(rows)
      .onConflict((oc) => oc.column('reference').doNothing())
      .returning('id')
      .execute();
  },

  insertGrants(db: Db, userId: number, resourceIds: number[], grant: Record<PermissionKey, PermissionLevel>) {
    return db
      .insertInto('permission_grants')
      .values(resourceIds.map((resourceId) => ({ user_id: userId, resource_id: resourceId, ...grant })))
      .execute();
  },

  listOfAccount(db: Db, domainName: string) {
    return db
      .selectFrom('resources as r')
      .innerJoin('accounts as a', 'a.id', 'r.account_id')
      .select(['r.id', 'r.reference', 'r.has_domain', 'r.has_service', 'r.has_mail', 'r.is_redir_and_parking'])
      .where('a.domain_name', '=', domainName)
      .orderBy('r.reference')
      .execute();
  },

  accountIdOf(db: Db, resourceId: number) {
    return db.selectFrom('resources').select('account_id').where('id', '=', resourceId).executeTakeFirstOrThrow();
  },

  async hasGrant(db: Db, userId: number, resourceId: number): Promise<boolean> {
    const row = await db
      .selectFrom('permission_grants')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('resource_id', '=', resourceId)
      .executeTakeFirst();
    return row !== undefined;
  },

  grantsOfUser(db: Db, userId: number) {
    return db
      .selectFrom('permission_grants as g')
      .innerJoin('resources as r', 'r.id', 'g.resource_id')
      .selectAll('g')
      .select('r.reference')
      .where('g.user_id', '=', userId)
      .orderBy('r.reference')
      .execute();
  },
};
