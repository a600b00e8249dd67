import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * Fixed-window counters kept in the database, so every API instance shares them. One atomic
 * upsert per hit: a window that has run out starts again at 1.
 */
export const rateLimitRepository = {
  async hits(db: Db, bucket: string, key: string, now: number, windowSeconds: number): Promise<number> {
    const row = await db
      .selectFrom('rate_limits')
      .select(['hits', 'window_start'])
      .where('bucket', '=', bucket)
      .where('key', '=', key)
      .executeTakeFirst();
    return row && row.window_start > now - windowSeconds ? row.hits : 0;
  },

  async hit(db: Db, bucket: string, key: string, now: number, windowSeconds: number): Promise<void> {
    const expired = sql<boolean>`rate_limits.window_start <= ${now - windowSeconds}`;
    await db
      .insertInto('rate_limits')
      .values({ bucket, key, window_start: now, hits: 1 })
      .onConflict((oc) =>
        oc.columns(['bucket', 'key']).doUpdateSet({
          hits: sql<number>`case when ${expired} then 1 else rate_limits.hits + 1 end`,
          window_start: sql<number>`case when ${expired} then ${now} else rate_limits.window_start end`,
        }),
      )
      .execute();
  },

  async reset(db: Db, bucket: string, key: string): Promise<void> {
    await db.deleteFrom('rate_limits').where('bucket', '=', bucket).where('key', '=', key).execute();
  },

  async purge(db: Db, before: number): Promise<void> {
    await db.deleteFrom('rate_limits').where('window_start', '<', before).execute();
  },
};
