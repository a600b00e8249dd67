import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

type ActorJoin = Database & {
  u: Database['users'];
  a: Database['accounts'];
  b: Database['brands'];
  t: Database['user_totp'];
};

/**
 * Who a session or an API token acts as, and whether they must set up a second factor first: the
 * columns both lookups read, over `users u`, `accounts a`, `brands b` and `user_totp t`.
 */
export function actorColumns(eb: ExpressionBuilder<ActorJoin, 'u' | 'a' | 'b' | 't'>) {
  return [
    eb.ref('u.id').as('user_id'),
    eb.ref('u.username').as('username'),
    eb.ref('a.id').as('account_id'),
    eb.ref('a.brand_id').as('brand_id'),
    eb.ref('a.domain_name').as('domain_name'),
    eb.ref('b.require_2fa').as('require_2fa'),
    eb.ref('u.second_factor_required').as('second_factor_required'),
    eb.ref('t.enabled_at').as('totp_enabled_at'),
    // A passkey is a second factor too (the brand's "two factors required").
    eb.exists(eb.selectFrom('user_passkeys as p').select('p.id').whereRef('p.user_id', '=', 'u.id')).as('has_passkey'),
  ] as const;
}

export const userRepository = {
  findForLogin(db: Db, domainName: string, username: string) {
    return db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select(['u.id', 'u.password_hash', 'u.last_login_at', 'a.id as account_id', 'a.brand_id'])
      .where('a.domain_name', '=', domainName)
      .where('u.username', '=', username)
      .executeTakeFirst();
  },

  /**
   * Whether the provider suspended the account: it has hosting services and every one is
   * suspended (a customer with one service suspended among others still manages the rest). The
   * reason is the last suspension's.
   */
  async suspension(db: Db, accountId: number): Promise<{ suspended: boolean; reason: string }> {
    const rows = await db
      .selectFrom('resources')
      .select(['suspended_at', 'suspended_reason'])
      .where('account_id', '=', accountId)
      .where('has_service', '=', 1)
      .execute();
    const suspended = rows.length > 0 && rows.every((row) => row.suspended_at !== null);
    const last = [...rows].sort((a, b) => Number(b.suspended_at ?? 0) - Number(a.suspended_at ?? 0))[0];
    return { suspended, reason: suspended ? (last?.suspended_reason ?? '') : '' };
  },

  /** Whether a manager of the account disabled the user. */
  async isDisabled(db: Db, userId: number): Promise<boolean> {
    const row = await db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirst();
    return row?.disabled_at !== null && row?.disabled_at !== undefined;
  },

  /** A user with its account, for a login by the provider's one-time link. */
  findForLinkLogin(db: Db, userId: number) {
    return db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select(['u.id', 'u.username', 'u.last_login_at', 'a.id as account_id', 'a.domain_name'])
      .where('u.id', '=', userId)
      .executeTakeFirst();
  },

  findById(db: Db, userId: number) {
    return db
      .selectFrom('users')
      .select(['id', 'password_hash', 'last_login_at', 'last_login_ip'])
      .where('id', '=', userId)
      .executeTakeFirst();
  },

  recordLogin(db: Db, userId: number, now: number, ip: string) {
    return db.updateTable('users').set({ last_login_at: now, last_login_ip: ip }).where('id', '=', userId).execute();
  },

  setPasswordHash(db: Db, userId: number, passwordHash: string, now: number) {
    return db
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now })
      .where('id', '=', userId)
      .execute();
  },
};
