import type { Db } from '../../db/database.ts';

/** The ALTCHA challenges already solved, kept until they expire so a solution is not replayed. */
export const captchaSpentRepository = {
  deleteExpired(db: Db, now: number) {
    return db.deleteFrom('captcha_spent').where('expires_at', '<', now).execute();
  },

  /** True when the signature went in, false when it was already there. */
  async insertOnce(db: Db, signature: string, expiresAt: number): Promise<boolean> {
    const inserted = await db
      .insertInto('captcha_spent')
      .values({ signature, expires_at: expiresAt })
      .onConflict((oc) => oc.column('signature').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  },
};
