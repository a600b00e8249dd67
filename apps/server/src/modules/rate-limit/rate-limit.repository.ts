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

  async reset(db: Db, bucket: string, key: string): Promise<void> {
    await db.deleteFrom('rate_limits').where('bucket', '=', bucket).where('key', '=', key).execute();
  },

  async purge(db: Db, before: number): Promise<void> {
    await db.deleteFrom('rate_limits').where('window_start', '<', before).execute();
  },
};
