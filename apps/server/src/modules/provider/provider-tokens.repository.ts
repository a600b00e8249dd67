import type { Db } from '../../db/database.ts';

/** The `provider_tokens` rows (migration 0039). */
export const providerTokensRepository = {
  list(db: Db) {
    return db
      .selectFrom('provider_tokens')
      .select(['id', 'name', 'created_at', 'last_used_at', 'revoked_at'])
      .orderBy('name')
      .execute();
  },

  byName(db: Db, name: string) {
    return db.selectFrom('provider_tokens').select(['id', 'revoked_at']).where('name', '=', name).executeTakeFirst();
  },

  byHash(db: Db, hash: string) {
    return db
      .selectFrom('provider_tokens')
      .select(['id', 'name', 'revoked_at'])
      .where('token_hash', '=', hash)
      .executeTakeFirst();
  },

  async insert(db: Db, row: { name: string; token_hash: string; created_at: number }): Promise<void> {
    await db.insertInto('provider_tokens').values(row).execute();
  },

  async revoke(db: Db, id: number, now: number): Promise<void> {
    await db.updateTable('provider_tokens').set({ revoked_at: now }).where('id', '=', id).execute();
  },

  async used(db: Db, id: number, now: number): Promise<void> {
    await db.updateTable('provider_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
  },
};
