import type { Db } from '../../db/database.ts';

export const outboxRepository = {
  async insert(
    db: Db,
    row: { brandId: number; kind: string; to: string; replyTo: string; subject: string; body: string; now: number },
  ): Promise<number> {
    const inserted = await db
      .insertInto('outbox')
      .values({
        brand_id: row.brandId,
        kind: row.kind,
        to_address: row.to,
        reply_to: row.replyTo,
        subject: row.subject,
        body: row.body,
        created_at: row.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  },

  markSent(db: Db, id: number, now: number) {
    return db.updateTable('outbox').set({ sent_at: now, error: null }).where('id', '=', id).execute();
  },

  setBody(db: Db, id: number, body: string) {
    return db.updateTable('outbox').set({ body }).where('id', '=', id).execute();
  },

  markFailed(db: Db, id: number, error: string) {
    return db
      .updateTable('outbox')
      .set({ error: error.slice(0, 1000) })
      .where('id', '=', id)
      .execute();
  },
};
