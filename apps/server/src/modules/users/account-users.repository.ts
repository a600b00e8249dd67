import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsAny, type ListPage, orderOf } from '../../db/list-query.ts';
import { secondFactorColumn } from '../../db/user-second-factor.ts';

function usersOf(db: Db, accountId: number) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_invitations as i', 'i.user_id', 'u.id')
    .where('u.account_id', '=', accountId);
}

function withColumns(query: ReturnType<typeof usersOf>) {
  return query.select((eb) => [
    'u.id',
    'u.username',
    'u.email',
    'u.last_login_at',
    'u.last_login_ip',
    'u.manage_users',
    'u.disabled_at',
    'i.expires_at as invitation_expires_at',
    'i.cancelled_at as invitation_cancelled_at',
    secondFactorColumn(eb as never),
    // whether they set a password (an invited user has none until they use the link)
    sql<number>`case when u.password_hash = '' then 0 else 1 end`.as('has_password'),
  ]);
}

export type AccountUserRow = Awaited<ReturnType<typeof accountUsersRepository.one>> & object;

/**
 * An account's users as its managers see them, their invitations and their right to manage
 * users. Every query names the account: another account's user is never found.
 */
export const accountUsersRepository = {
  async page(db: Db, accountId: number, page: ListPage<'username' | 'lastLogin'>) {
    let base = usersOf(db, accountId);
    if (page.filter) base = base.where(containsAny([sql`u.username`, sql`u.email`], page.filter));
    const order = orderOf({ username: sql`u.username`, lastLogin: sql`coalesce(u.last_login_at, 0)` }, page, sql`u.id`);
    const [rows, count] = await Promise.all([
      withColumns(base).orderBy(order).limit(page.limit).offset(page.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },

  one(db: Db, accountId: number, userId: number) {
    return withColumns(usersOf(db, accountId).where('u.id', '=', userId)).executeTakeFirst();
  },

  /** A user without a password yet (they set it from their invitation); undefined if the name is taken. */
  async insertInvited(db: Db, row: { accountId: number; username: string; email: string; now: number }) {
    const inserted = await db
      .insertInto('users')
      .values({
        account_id: row.accountId,
        username: row.username,
        email: row.email,
        password_hash: '',
        password_changed_at: row.now,
        created_at: row.now,
      })
      .onConflict((conflict) => conflict.columns(['account_id', 'username']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  },

  /** The user's one live invitation, replacing any earlier one (whose link stops working). */
  async putInvitation(db: Db, row: { userId: number; tokenHash: string; now: number; expiresAt: number }) {
    await db.deleteFrom('user_invitations').where('user_id', '=', row.userId).execute();
    await db
      .insertInto('user_invitations')
      .values({ user_id: row.userId, token_hash: row.tokenHash, created_at: row.now, expires_at: row.expiresAt })
      .execute();
  },

  async cancelInvitation(db: Db, userId: number, now: number): Promise<boolean> {
    const result = await db
      .updateTable('user_invitations')
      .set({ cancelled_at: now })
      .where('user_id', '=', userId)
      .where('cancelled_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** An invitation by its token's hash, with its user and account (cancelled ones are not found). */
  invitationByToken(db: Db, tokenHash: string) {
    return db
      .selectFrom('user_invitations as i')
      .innerJoin('users as u', 'u.id', 'i.user_id')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select(['i.user_id', 'i.expires_at', 'u.username', 'u.account_id', 'a.domain_name', 'a.brand_id'])
      .where('i.token_hash', '=', tokenHash)
      .where('i.cancelled_at', 'is', null)
      .executeTakeFirst();
  },

  /**
   * Uses the invitation up and sets the password, at most once: of two calls with the same link,
   * only the one that deleted the row sets it.
   */
  async acceptInvitation(db: Db, tokenHash: string, userId: number, passwordHash: string, now: number) {
    const used = await db
      .deleteFrom('user_invitations')
      .where('token_hash', '=', tokenHash)
      .where('cancelled_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(used.numDeletedRows) === 0) return false;
    await db
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now })
      .where('id', '=', userId)
      .execute();
    return true;
  },

  async setDisabled(db: Db, accountId: number, userId: number, at: number | null) {
    await db
      .updateTable('users')
      .set({ disabled_at: at })
      .where('id', '=', userId)
      .where('account_id', '=', accountId)
      .execute();
  },

  async remove(db: Db, accountId: number, userId: number) {
    await db.deleteFrom('users').where('id', '=', userId).where('account_id', '=', accountId).execute();
  },
};
