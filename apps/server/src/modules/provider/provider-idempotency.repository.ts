import type { Db } from '../../db/database.ts';

/** The `provider_idempotency` rows (migration 0039). */
export const providerIdempotencyRepository = {
  /** The claim of a key, or false when the token already used it. */
  async claim(
    db: Db,
    row: {
      token_id: number;
      idempotency_key: string;
      request_hash: string;
      created_at: number;
      subject: string | null;
    },
  ): Promise<boolean> {
    const inserted = await db
      .insertInto('provider_idempotency')
      .values({ ...row, state: 'running', status_code: null, answer: null })
      .onConflict((oc) => oc.columns(['token_id', 'idempotency_key']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  find(db: Db, tokenId: number, key: string) {
    return db
      .selectFrom('provider_idempotency')
      .select(['request_hash', 'state', 'status_code', 'answer', 'created_at'])
      .where('token_id', '=', tokenId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  },

  async finish(db: Db, tokenId: number, key: string, statusCode: number, answer: string): Promise<void> {
    await db
      .updateTable('provider_idempotency')
      .set({ state: 'done', status_code: statusCode, answer })
      .where('token_id', '=', tokenId)
      .where('idempotency_key', '=', key)
      .execute();
  },

  async release(db: Db, tokenId: number, key: string): Promise<void> {
    await db
      .deleteFrom('provider_idempotency')
      .where('token_id', '=', tokenId)
      .where('idempotency_key', '=', key)
      .execute();
  },

  /** Frees a key whose first call died, unless another call took it over meanwhile. */
  async releaseIfRunningSince(db: Db, tokenId: number, key: string, createdAt: number): Promise<void> {
    await db
      .deleteFrom('provider_idempotency')
      .where('token_id', '=', tokenId)
      .where('idempotency_key', '=', key)
      .where('state', '=', 'running')
      .where('created_at', '=', createdAt)
      .execute();
  },

  async deleteOfSubject(db: Db, subject: string): Promise<void> {
    await db.deleteFrom('provider_idempotency').where('subject', '=', subject).execute();
  },

  async deleteOlderThan(db: Db, before: number): Promise<void> {
    await db.deleteFrom('provider_idempotency').where('created_at', '<', before).execute();
  },
};
