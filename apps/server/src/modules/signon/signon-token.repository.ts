import type { Db } from '../../db/database.ts';

/** The stored side of sign-on tokens: only their hashes, with kind, subject and expiry. */
export const signonTokenRepository = {
  insert(db: Db, row: { token_hash: string; kind: string; subject_id: number; expires_at: number }) {
    return db.insertInto('signon_tokens').values(row).execute();
  },

  /**
   * Removes the token and answers what it was, in one `DELETE … RETURNING`: of two concurrent
   * takes only the one whose delete removed the row gets it.
   */
  take(db: Db, tokenHash: string) {
    return db
      .deleteFrom('signon_tokens')
      .where('token_hash', '=', tokenHash)
      .returning(['kind', 'subject_id', 'expires_at'])
      .executeTakeFirst();
  },

  deleteExpired(db: Db, now: number) {
    return db.deleteFrom('signon_tokens').where('expires_at', '<', now).execute();
  },
};
