import { PERMISSION_KEYS, type PermissionKey, type PermissionLevel } from '@panel247/contract/constants';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

type GrantScope = { userId: number; accountId: number };

/** A grant counts when at least one key is visible; an all-disabled row is no access. */
function anyVisible(eb: ExpressionBuilder<Database & { g: Database['permission_grants'] }, 'g'>) {
  return eb.or(PERMISSION_KEYS.map((key) => eb(`g.${key}`, '!=', 'disabled')));
}

export const permissionRepository = {
  /** The users who can see the resource (a visible key on it). */
  async usersWhoSee(db: Db, resourceId: number): Promise<number[]> {
    const rows = await db
      .selectFrom('permission_grants as g')
      .select('g.user_id')
      .where('g.resource_id', '=', resourceId)
      .where(anyVisible)
      .execute();
    return rows.map((row) => row.user_id);
  },
  /** Every resource of the account the user can see, alphabetically. */
  listVisible(db: Db, scope: GrantScope) {
    return db
      .selectFrom('permission_grants as g')
      .innerJoin('resources as r', 'r.id', 'g.resource_id')
      .select([
        'r.id',
        'r.reference',
        'r.has_domain',
        'r.has_service',
        'r.has_mail',
        'g.domain',
        'g.service',
        'g.servicemail',
      ])
      .where('g.user_id', '=', scope.userId)
      .where('r.account_id', '=', scope.accountId)
      .where((eb) => anyVisible(eb as never))
      .orderBy('r.reference')
      .execute();
  },

  /** The resource and this user's grant on it, only when the account holds it. */
  findGrant(db: Db, scope: GrantScope, resourceId: number) {
    return db
      .selectFrom('permission_grants as g')
      .innerJoin('resources as r', 'r.id', 'g.resource_id')
      .selectAll('g')
      .select([
        'r.reference',
        'r.reference_punycode',
        'r.has_domain',
        'r.has_service',
        'r.has_mail',
        'r.is_redir_and_parking',
        'r.domain_expire_ts',
        'r.service_expire_ts',
        'r.mail_expire_ts',
      ])
      .where('g.user_id', '=', scope.userId)
      .where('r.account_id', '=', scope.accountId)
      .where('g.resource_id', '=', resourceId)
      .executeTakeFirst();
  },

  /** The user's grants on some of the account's resources (at most a few hundred ids a call). */
  findGrants(db: Db, scope: GrantScope, resourceIds: number[]) {
    return db
      .selectFrom('permission_grants as g')
      .innerJoin('resources as r', 'r.id', 'g.resource_id')
      .selectAll('g')
      .select(['r.reference', 'r.has_domain', 'r.has_service', 'r.has_mail'])
      .where('g.user_id', '=', scope.userId)
      .where('r.account_id', '=', scope.accountId)
      .where('g.resource_id', 'in', resourceIds)
      .execute();
  },

  findVisibleIdByReference(db: Db, scope: GrantScope, reference: string) {
    return db
      .selectFrom('permission_grants as g')
      .innerJoin('resources as r', 'r.id', 'g.resource_id')
      .select('r.id')
      .where('g.user_id', '=', scope.userId)
      .where('r.account_id', '=', scope.accountId)
      .where('r.reference', '=', reference)
      .where((eb) => anyVisible(eb as never))
      .executeTakeFirst();
  },

  /** Sets the levels of one user on one resource; keys not given keep their value (or 'disabled'). */
  async upsertGrant(
    db: Db,
    userId: number,
    resourceId: number,
    levels: Partial<Record<PermissionKey, PermissionLevel>>,
  ): Promise<void> {
    const existing = await db
      .selectFrom('permission_grants')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('resource_id', '=', resourceId)
      .executeTakeFirst();
    if (existing) {
      if (Object.keys(levels).length === 0) return;
      await db
        .updateTable('permission_grants')
        .set(levels)
        .where('user_id', '=', userId)
        .where('resource_id', '=', resourceId)
        .execute();
      return;
    }
    const row = Object.fromEntries(PERMISSION_KEYS.map((key) => [key, levels[key] ?? 'disabled'])) as Record<
      PermissionKey,
      PermissionLevel
    >;
    await db
      .insertInto('permission_grants')
      .values({ user_id: userId, resource_id: resourceId, ...row })
      .execute();
  },

  /** Whether the user holds the account's right to manage its users. */
  async managesUsers(db: Db, userId: number): Promise<boolean> {
    const row = await db
      .selectFrom('users')
      .select('manage_users')
      .where('id', '=', userId)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    return row?.manage_users === 1;
  },

  async setManageUsers(db: Db, accountId: number, userId: number, value: boolean) {
    await db
      .updateTable('users')
      .set({ manage_users: value ? 1 : 0 })
      .where('id', '=', userId)
      .where('account_id', '=', accountId)
      .execute();
  },

  /** Holds the account's row until the transaction ends (an UPDATE locks it on both databases). */
  async lockAccount(db: Db, accountId: number): Promise<void> {
    await db
      .updateTable('accounts')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', accountId)
      .execute();
  },

  /** The users of the account who hold the right and can log in (not disabled). */
  async activeManagers(db: Db, accountId: number): Promise<number[]> {
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where('account_id', '=', accountId)
      .where('manage_users', '=', 1)
      .where('disabled_at', 'is', null)
      .execute();
    return rows.map((row) => row.id);
  },

  async deleteGrant(db: Db, userId: number, resourceId: number): Promise<void> {
    await db
      .deleteFrom('permission_grants')
      .where('user_id', '=', userId)
      .where('resource_id', '=', resourceId)
      .execute();
  },
};
