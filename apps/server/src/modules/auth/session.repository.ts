import type { Db } from '../../db/database.ts';
import { actorColumns } from './user.repository.ts';

export const sessionRepository = {
  insert(
    db: Db,
    row: { id: string; userId: number; now: number; ip: string; userAgent: string; previousLoginAt: number | null },
  ) {
    return db
      .insertInto('sessions')
      .values({
        id: row.id,
        user_id: row.userId,
        created_at: row.now,
        last_seen_at: row.now,
        ip: row.ip,
        user_agent: row.userAgent,
        previous_login_at: row.previousLoginAt,
      })
      .execute();
  },

  /** The session with its user and account, in one query (this runs on every call). */
  findWithUser(db: Db, id: string) {
    return (
      db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .innerJoin('accounts as a', 'a.id', 'u.account_id')
        .innerJoin('brands as b', 'b.id', 'a.brand_id')
        .leftJoin('user_totp as t', 't.user_id', 'u.id')
        .select((eb) => ['s.id', 's.created_at', 's.last_seen_at', 's.previous_login_at', ...actorColumns(eb as never)])
        .where('s.id', '=', id)
        // a disabled user's sessions were ended: none left over from a race counts
        .where('u.disabled_at', 'is', null)
        .executeTakeFirst()
    );
  },

  /** Last seen now, from this address (a phone changes networks): one write, at most once a minute. */
  touch(db: Db, id: string, now: number, ip: string) {
    return db.updateTable('sessions').set({ last_seen_at: now, ip }).where('id', '=', id).execute();
  },

  /** A user's sessions, the most recently seen first (expired ones included until purged). */
  listOfUser(db: Db, userId: number) {
    return db
      .selectFrom('sessions')
      .select(['id', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
      .where('user_id', '=', userId)
      .orderBy('last_seen_at', 'desc')
      .orderBy('created_at', 'desc')
      .execute();
  },

  async delete(db: Db, id: string): Promise<void> {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
  },

  /** Ends every session of a user; returns their ids so listeners can be told. */
  async deleteAllOfUser(db: Db, userId: number): Promise<string[]> {
    const rows = await db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
    await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    return rows.map((row) => row.id);
  },

  async deleteExpired(db: Db, idleBefore: number, createdBefore: number): Promise<number> {
    const result = await db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('last_seen_at', '<', idleBefore), eb('created_at', '<', createdBefore)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
