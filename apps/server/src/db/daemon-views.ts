import { type Kysely, sql } from 'kysely';
import type { Db } from './database.ts';
import { createDaemonView } from './migrations/0047-sftp-keys.ts';

/**
 * The SQL views the daemons read instead of the tables (Postfix and Dovecot the mail views,
 * ProFTPD the FTP logins and their SFTP keys; deploy/ and the roles of deploy/postgresql/daemon-roles.sql name them). A
 * view dropped by hand or left out of a restore stops every login at once, so `mail sync` and
 * `ftp sync` check them and put them back. Each entry is the latest migration's definition: a
 * migration that changes a view exports its new one and is named here.
 */
const DAEMON_VIEWS = {
  mail_domains_view: { columns: ['domain', 'node'] },
  mail_users_view: { columns: ['email', 'domain', 'local_part', 'password', 'quota_bytes', 'node', 'nologin'] },
  mail_aliases_view: { columns: ['source', 'destination', 'node'] },
  mail_senders_view: { columns: ['sender', 'login', 'node'] },
  ftp_users_view: { columns: ['userid', 'passwd', 'uid', 'gid', 'homedir', 'shell', 'node'] },
  sftp_keys_view: { columns: ['userid', 'sshkey', 'node'] },
} as const;

export type DaemonView = keyof typeof DAEMON_VIEWS;

export const MAIL_VIEWS: DaemonView[] = [
  'mail_domains_view',
  'mail_users_view',
  'mail_aliases_view',
  'mail_senders_view',
];
export const FTP_VIEWS: DaemonView[] = ['ftp_users_view', 'sftp_keys_view'];

export interface ViewDrift {
  view: DaemonView;
  /** Whether it was recreated (false on a dry run, or when recreating failed: then `error`). */
  repaired: boolean;
  error?: string;
}

/**
 * Whether the view answers with every column the daemons read. A plain query rather than the
 * catalogue: it works the same on SQLite and PostgreSQL and also catches a view that exists but
 * no longer compiles (a table it reads was renamed).
 */
async function answers(db: Kysely<unknown>, view: DaemonView): Promise<boolean> {
  const columns = DAEMON_VIEWS[view].columns.map((column) => sql.ref(column));
  return sql`SELECT ${sql.join(columns)} FROM ${sql.table(view)} WHERE 1 = 0`.execute(db).then(
    () => true,
    () => false,
  );
}

/** Finds the views that do not answer and, unless `dryRun`, recreates each in one transaction. */
export async function repairDaemonViews(
  panelDb: Db,
  views: DaemonView[],
  options: { dryRun: boolean },
): Promise<ViewDrift[]> {
  // The migrations' view builders take an untyped Kysely, as every migration does.
  const db = panelDb as unknown as Kysely<unknown>;
  const drift: ViewDrift[] = [];
  for (const view of views) {
    if (await answers(db, view)) continue;
    if (options.dryRun) {
      drift.push({ view, repaired: false });
      continue;
    }
    try {
      await db.transaction().execute(async (trx) => {
        await sql`DROP VIEW IF EXISTS ${sql.table(view)}`.execute(trx);
        await createDaemonView(trx, view);
      });
      drift.push({ view, repaired: true });
    } catch (error) {
      drift.push({ view, repaired: false, error: (error as Error).message });
    }
  }
  return drift;
}
