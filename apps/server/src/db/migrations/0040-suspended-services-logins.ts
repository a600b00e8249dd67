import { type Kysely, sql } from 'kysely';
import { type DaemonViewName, replaceDaemonViews } from './0036-service-placements.ts';
import { viewsOf as placedViews } from './0037-moving-parts-served-nowhere.ts';

/**
 * Frozen on 2026-12-01: a suspended service's logins are refused, and its mail still arrives.
 *
 * - `mail_users_view` gets a last column, `nologin`: 'y' for the mailboxes of a suspended service
 *   (`resources.suspended_at` set), NULL otherwise. Dovecot's password query returns it as the
 *   `nologin` extra field (deploy/dovecot), which refuses IMAP, POP3 and SMTP AUTH logins with a
 *   reason; the user query and Postfix's lookups do not read it, so LMTP still delivers.
 * - `ftp_users_view` leaves out the FTP logins of a suspended service: ProFTPD finds no such user.
 *
 * Both are 0037's views with those changes, made on the SQL text 0037 builds (frozen, so each
 * change is checked to apply exactly once).
 */
function changedOnce(text: string, from: string, to: string): string {
  const parts = text.split(from);
  if (parts.length !== 2) throw new Error(`0040: expected one "${from.trim()}" in a view, found ${parts.length - 1}`);
  return parts.join(to);
}

const MAILBOXES_OF_MAIL_SERVICES = `AS node
    FROM mailboxes m JOIN resources r ON r.id = m.service_id
    WHERE r.has_mail = 1`;

type ViewSql = (create: 'CREATE VIEW' | 'CREATE OR REPLACE VIEW') => string;

export function viewsOf(db: Kysely<unknown>): Record<DaemonViewName, ViewSql> {
  const placed = placedViews(db);
  return {
    ...placed,
    mail_users_view: (create) =>
      changedOnce(
        placed.mail_users_view(create),
        MAILBOXES_OF_MAIL_SERVICES,
        `AS node,
           CASE WHEN r.suspended_at IS NULL THEN NULL ELSE 'y' END AS nologin
    FROM mailboxes m JOIN resources r ON r.id = m.service_id
    WHERE r.has_mail = 1`,
      ),
    ftp_users_view: (create) =>
      changedOnce(
        placed.ftp_users_view(create),
        'WHERE r.has_service = 1',
        'WHERE r.has_service = 1 AND r.suspended_at IS NULL',
      ),
  };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await replaceDaemonViews(db, viewsOf(db));
}

/** For `mail sync` and `ftp sync`, which put a view back as the latest migration made it (db/daemon-views.ts). */
export async function createDaemonView(db: Kysely<unknown>, view: DaemonViewName): Promise<void> {
  await sql.raw(viewsOf(db)[view]('CREATE VIEW')).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // PostgreSQL cannot drop a column of a view: the mail users' view is made again
  for (const view of ['mail_users_view', 'ftp_users_view'] as const) {
    await db.schema.dropView(view).ifExists().execute();
    await sql.raw(placedViews(db)[view]('CREATE VIEW')).execute(db);
  }
}
