import { type Kysely, sql } from 'kysely';

/**
 * Frozen on 2026-11-29: who may send as which address (`mail_senders_view`), read by Postfix's
 * submission services (smtpd_sender_login_maps, deploy/postfix-mail/senders.cf.template). One row
 * per address and login (the mailbox address Dovecot logs in); Postfix joins a sender's rows.
 *
 * - A mailbox sends as itself.
 * - An alias may be sent as by each mailbox it delivers to directly, when that mailbox belongs to
 *   the same account as the alias: a customer who points an alias at another customer's mailbox
 *   gives it no right to send as the alias.
 * - A catch-all (an alias with an empty local part) gives no right to send at all: Postfix would
 *   otherwise read its `@domain` row as ownership of every address of the domain no mailbox or
 *   alias has, which nobody can tell from the panel. An address to send as is made an alias.
 *
 * A target is matched as a whole item of the comma-separated list; `_` and `%` in an address are
 * escaped so that LIKE compares them literally.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createMailSendersView(db);
}

/** Exported for `mail sync`, which puts the view back as this migration made it (db/daemon-views.ts). */
export async function createMailSendersView(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIEW mail_senders_view AS
    SELECT m.local_part || '@' || r.reference_punycode AS sender,
           m.local_part || '@' || r.reference_punycode AS login
    FROM mailboxes m JOIN resources r ON r.id = m.service_id
    WHERE r.has_mail = 1
    UNION ALL
    SELECT a.local_part || '@' || ra.reference_punycode AS sender,
           m.local_part || '@' || rm.reference_punycode AS login
    FROM mail_aliases a
    JOIN resources ra ON ra.id = a.service_id
    JOIN resources rm ON rm.account_id = ra.account_id
    JOIN mailboxes m ON m.service_id = rm.id
    WHERE ra.has_mail = 1 AND rm.has_mail = 1 AND a.local_part <> ''
      AND ',' || a.targets || ',' LIKE
        '%,' || REPLACE(REPLACE(REPLACE(m.local_part || '@' || rm.reference_punycode, '\\', '\\\\'), '_', '\\_'), '%', '\\%') || ',%'
        ESCAPE '\\'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP VIEW IF EXISTS mail_senders_view`.execute(db);
}
