import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * The hourly sending counters of mailbox logins (`mail_send_counts`, migration 0028), shared by
 * every panel instance through the database.
 */
export const sendingLimitRepository = {
  /**
   * Counts `weight` recipients for `login` when its window has room for them, and says whether it
   * did. One upsert, as rate_limits' `take`: a window that has run out starts again (its alert
   * flag too); a window without room is left untouched (the update's WHERE fails and nothing is
   * returned). PostgreSQL re-checks that WHERE on the locked row and SQLite runs writers one at a
   * time, so two messages at once never both take the last places. The caller makes sure that
   * `weight` alone fits in `max` (the insert of a first message is not checked).
   */
  async take(db: Db, login: string, now: number, windowSeconds: number, weight: number, max: number) {
    const expired = sql<boolean>`mail_send_counts.window_start <= ${now - windowSeconds}`;
    const row = await db
      .insertInto('mail_send_counts')
      .values({ login, window_start: now, sent: weight, alerted: 0 })
      .onConflict((oc) =>
        oc
          .column('login')
          .doUpdateSet({
            sent: sql<number>`case when ${expired} then ${weight} else mail_send_counts.sent + ${weight} end`,
            window_start: sql<number>`case when ${expired} then ${now} else mail_send_counts.window_start end`,
            alerted: sql<number>`case when ${expired} then 0 else mail_send_counts.alerted end`,
          })
          .where(sql<boolean>`${expired} or mail_send_counts.sent + ${weight} <= ${max}`),
      )
      .returning('sent')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** The login's window: when it started and what it counted (none before its first message). */
  window(db: Db, login: string) {
    return db
      .selectFrom('mail_send_counts')
      .select(['window_start', 'sent'])
      .where('login', '=', login)
      .executeTakeFirst();
  },

  /**
   * Marks the window that started at `windowStart` as alerted and says whether this call did it:
   * of several refusals at once, in one instance or several, exactly one gets true.
   */
  async markAlerted(db: Db, login: string, windowStart: number): Promise<boolean> {
    const result = await db
      .updateTable('mail_send_counts')
      .set({ alerted: 1 })
      .where('login', '=', login)
      .where('window_start', '=', windowStart)
      .where('alerted', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** The mailbox a login names, with its service and that service's account (none once deleted). */
  mailboxOwner(db: Db, localPart: string, domain: string) {
    return db
      .selectFrom('mailboxes as m')
      .innerJoin('resources as r', 'r.id', 'm.service_id')
      .select(['m.service_id', 'r.account_id'])
      .where('m.local_part', '=', localPart)
      .where('r.reference_punycode', '=', domain)
      .where('r.has_mail', '=', 1)
      .executeTakeFirst();
  },

  /** Forgets windows that ended before `before` (a quiet login's row; its next message starts a new one). */
  async purgeBefore(db: Db, before: number): Promise<number> {
    const result = await db.deleteFrom('mail_send_counts').where('window_start', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
