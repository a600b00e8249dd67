import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * Fixed-window counters kept in the database, so every API instance shares them. Counting and
 * checking are one statement: a check followed by a separate write lets parallel requests all
 * pass the check before any of them is counted.
 */
export const rateLimitRepository = {
  /**
   * Counts one attempt when the window has room and says whether it did. One upsert: a window
   * that has run out starts again at 1; a full window is left untouched (the update's WHERE
   * fails, so nothing is returned). PostgreSQL re-checks that WHERE on the locked row and SQLite
   * runs writers one at a time, so concurrent callers never both take the last place.
   */
  async take(db: Db, bucket: string, key: string, now: number, windowSeconds: number, max: number): Promise<boolean> {
    const expired = sql<boolean>`rate_limits.window_start <= ${now - windowSeconds}`;
    const row = await db
      .insertInto('rate_limits')
      .values({ bucket, key, window_start: now, hits: 1 })
      .onConflict((oc) =>
        oc
          .columns(['bucket', 'key'])
          .doUpdateSet({
            hits: sql<number>`case when ${expired} then 1 else rate_limits.hits + 1 end`,
            window_start: sql<number>`case when ${expired} then ${now} else rate_limits.window_start end`,
          })
          .where(sql<boolean>`${expired} or rate_limits.hits < ${max}`),
      )
      .returning('hits')
      .executeTakeFirst();
    return row !== undefined && row.hits <= max;
  },

  /**
   * Lets one attempt in to be checked when the failures and the attempts being checked leave
   * room, and says whether it did; one upsert, for the same reason as `take`. A window that has
   * run out starts again with no failures (attempts still being checked keep their places).
   */
  async enter(db: Db, bucket: string, key: string, now: number, windowSeconds: number, max: number): Promise<boolean> {
    const expired = sql<boolean>`rate_limits.window_start <= ${now - windowSeconds}`;
    const row = await db
      .insertInto('rate_limits')
      .values({ bucket, key, window_start: now, hits: 0, pending: 1 })
      .onConflict((oc) =>
        oc
          .columns(['bucket', 'key'])
          .doUpdateSet({
            hits: sql<number>`case when ${expired} then 0 else rate_limits.hits end`,
            pending: sql<number>`rate_limits.pending + 1`,
            window_start: sql<number>`case when ${expired} then ${now} else rate_limits.window_start end`,
          })
          .where(sql<boolean>`(case when ${expired} then 0 else rate_limits.hits end) + rate_limits.pending < ${max}`),
      )
      .returning('pending')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** The failures and the attempts being checked of a key (none when it has no row). */
  async state(db: Db, bucket: string, key: string) {
    return db
      .selectFrom('rate_limits')
      .select(['hits', 'pending', 'window_start'])
      .where('bucket', '=', bucket)
      .where('key', '=', key)
      .executeTakeFirst();
  },

  /** An attempt `enter` let in has been checked: it leaves `pending`, and counts if it failed. */
  async settle(db: Db, bucket: string, key: string, failed: boolean): Promise<void> {
    await db
      .updateTable('rate_limits')
      .set({
        pending: sql<number>`case when rate_limits.pending > 0 then rate_limits.pending - 1 else 0 end`,
        hits: sql<number>`rate_limits.hits + ${failed ? 1 : 0}`,
      })
      .where('bucket', '=', bucket)
      .where('key', '=', key)
      .execute();
  },

  /**
   * Forgets a key (a correct password): its failures, and the places of attempts still being
   * checked, whose settling then finds no row. Someone who has just given the right password gains
   * nothing by guessing it in parallel.
   */
  async clear(db: Db, bucket: string, key: string): Promise<void> {
    await db.deleteFrom('rate_limits').where('bucket', '=', bucket).where('key', '=', key).execute();
  },

  /** Gives back one counted attempt (one that turned out not to be a failure). */
  async giveBack(db: Db, bucket: string, key: string): Promise<void> {
    await db
      .updateTable('rate_limits')
      .set({ hits: sql<number>`rate_limits.hits - 1` })
      .where('bucket', '=', bucket)
      .where('key', '=', key)
      .where('hits', '>', 0)
      .execute();
  },

  async purge(db: Db, before: number): Promise<void> {
    await db.deleteFrom('rate_limits').where('window_start', '<', before).execute();
  },
};
