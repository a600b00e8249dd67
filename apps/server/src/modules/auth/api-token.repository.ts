import type { Db } from '../../db/database.ts';
import { actorColumns } from './user.repository.ts';

export const apiTokenRepository = {
  insert(
    db: Db,
    row: { userId: number; name: string; tokenHash: string; scope: string; now: number; expiresAt: number },
  ) {
    return db
      .insertInto('api_tokens')
      .values({
        user_id: row.userId,
        name: row.name,
        token_hash: row.tokenHash,
        scope: row.scope,
        created_at: row.now,
        expires_at: row.expiresAt,
        last_used_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  },

  /**
   * The token with its user and account, in one query (this runs on every call made with a
   * token: never cached, so a revoked token is refused at once by every instance).
   */
  findWithUser(db: Db, tokenHash: string) {
    return db
      .selectFrom('api_tokens as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .innerJoin('brands as b', 'b.id', 'a.brand_id')
      .leftJoin('user_totp as t', 't.user_id', 'u.id')
      .select((eb) => [
        'k.id',
        'k.scope',
        'k.expires_at',
        'k.last_used_at',
        'k.last_used_ip',
        ...actorColumns(eb as never),
      ])
      .where('k.token_hash', '=', tokenHash)
      .where('u.disabled_at', 'is', null)
      .executeTakeFirst();
  },

  touch(db: Db, id: number, now: number, ip: string) {
    return db.updateTable('api_tokens').set({ last_used_at: now, last_used_ip: ip }).where('id', '=', id).execute();
  },

  listOfUser(db: Db, userId: number) {
    return db
      .selectFrom('api_tokens')
      .select(['id', 'name', 'scope', 'created_at', 'expires_at', 'last_used_at', 'last_used_ip'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  async countLive(db: Db, userId: number, now: number): Promise<number> {
    const row = await db
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  /** Deletes one of the user's own tokens and answers it; undefined when it is not theirs (or already gone). */
  deleteOfUser(db: Db, userId: number, id: number) {
    return db
      .deleteFrom('api_tokens')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returning(['name', 'scope', 'expires_at'])
      .executeTakeFirst();
  },

  /** Deletes every token of the user; answers how many. */
  async deleteAllOfUser(db: Db, userId: number): Promise<number> {
    const result = await db.deleteFrom('api_tokens').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** Deletes every token that expired before `before` (unix seconds); answers how many. */
  async deleteExpiredBefore(db: Db, before: number): Promise<number> {
    const result = await db.deleteFrom('api_tokens').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
