import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { MailboxSpamTable, MailSpamSenderTable } from '../../db/schema.ts';

/** A service's mailboxes with their filtering. */
function withFiltering(db: Db, serviceId: number) {
  return db
    .selectFrom('mailboxes as m')
    .leftJoin('mailbox_spam as s', 's.mailbox_id', 'm.id')
    .select(['m.id', 'm.local_part', 's.mode', 's.threshold'])
    .where('m.service_id', '=', serviceId);
}

/** Each mailbox's spam filtering (`mailbox_spam`) and each service's allow and block lists (`mail_spam_senders`). */
export const mailSpamRepository = {
  /** The service's mailboxes with their filtering (null columns: never set, so off). */
  mailboxes(db: Db, serviceId: number) {
    return withFiltering(db, serviceId).orderBy('m.local_part').execute();
  },
  /** One mailbox of the service, with its filtering (undefined: not the service's). */
  mailbox(db: Db, serviceId: number, mailboxId: number) {
    return withFiltering(db, serviceId).where('m.id', '=', mailboxId).executeTakeFirst();
  },
  of(db: Db, mailboxId: number) {
    return db.selectFrom('mailbox_spam').selectAll().where('mailbox_id', '=', mailboxId).executeTakeFirst();
  },
  /** Every mailbox's filtering, by its address as under the mail root (for `mail sync`). */
  all(db: Db) {
    return db
      .selectFrom('mailbox_spam as s')
      .innerJoin('mailboxes as m', 'm.id', 's.mailbox_id')
      .innerJoin('resources as r', 'r.id', 'm.service_id')
      .select(['r.reference_punycode as domain', 'm.local_part as localPart', 's.mode', 's.threshold'])
      .execute();
  },
  save(db: Db, row: Insertable<MailboxSpamTable>) {
    const { mailbox_id: _, ...changes } = row;
    return db
      .insertInto('mailbox_spam')
      .values(row)
      .onConflict((conflict) => conflict.column('mailbox_id').doUpdateSet(changes))
      .execute();
  },
  senders(db: Db, serviceId: number) {
    return db
      .selectFrom('mail_spam_senders')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('list')
      .orderBy('sender')
      .execute();
  },
  findSender(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('mail_spam_senders')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  /** The list a sender is on in the service, if any (a sender is on one list only). */
  async listOf(db: Db, serviceId: number, sender: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('mail_spam_senders')
      .select('list')
      .where('service_id', '=', serviceId)
      .where('sender', '=', sender)
      .executeTakeFirst();
    return row?.list;
  },
  insertSender(db: Db, row: Insertable<MailSpamSenderTable>) {
    return db.insertInto('mail_spam_senders').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async deleteSender(db: Db, serviceId: number, id: number): Promise<void> {
    await db.deleteFrom('mail_spam_senders').where('service_id', '=', serviceId).where('id', '=', id).execute();
  },
};
