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

  /** A hosting service as the provider's calls see it: its plan, suspension and account. */
  serviceView(db: Db, reference: string) {
    return db
      .selectFrom('resources as r')
      .innerJoin('accounts as a', 'a.id', 'r.account_id')
      .leftJoin('plans as p', 'p.id', 'r.plan_id')
      .select([
        'r.id',
        'r.reference_punycode as domain',
        'r.account_id',
        'r.has_domain',
        'r.suspended_at',
        'r.suspended_reason',
        'p.name as plan',
        'a.domain_name as account',
        'a.brand_id',
      ])
      .where('r.reference', '=', reference)
      .where('r.has_service', '=', 1)
      .executeTakeFirst();
  },

  /** Every hosting service, for the provider's usage update. */
  services(db: Db) {
    return db
      .selectFrom('resources')
      .select(['id', 'reference'])
      .where('has_service', '=', 1)
      .orderBy('reference')
      .execute();
  },

  async setSuspended(db: Db, id: number, suspension: { at: number; reason: string } | null): Promise<void> {
    await db
      .updateTable('resources')
      .set({ suspended_at: suspension?.at ?? null, suspended_reason: suspension?.reason ?? '' })
      .where('id', '=', id)
      .execute();
  },

  /** The account's first user: the owner the provider made with it. */
  owner(db: Db, accountDomain: string) {
    return db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select(['u.id', 'u.username'])
      .where('a.domain_name', '=', accountDomain)
      .orderBy('u.id')
      .executeTakeFirst();
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
