import { type Kysely, sql } from 'kysely';
import {
  type DaemonViewName,
  daemonViewsWith,
  PLACED_DAEMON_VIEWS,
  replaceDaemonViews,
} from './0036-service-placements.ts';
import { isPostgres } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-30: a part of a service in a move's final copy is served by no server, and an
 * FTP login's home is on its own server's hosting root.
 *
 * The daemons' views name no server (`node` is NULL) for the rows of a service whose part is in a
 * move's `cutover` state: mail (Postfix, Dovecot) or FTP logins (ProFTPD, with the web part). For
 * those seconds neither the old server nor the new one takes the domain's mail (Postfix defers it,
 * 454, and the sender tries again) or logs its users in, so nothing is written on the old server
 * after its final copy has been taken, and nothing on the new one before. A move abandoned by its
 * process stops hiding the service after 15 minutes (MOVE_STALE_SECONDS), by the database's clock.
 */
export const nodeOf = (staleBefore: string) => (id: string, role: 'mail' | 'web') =>
  `CASE WHEN EXISTS (SELECT 1 FROM service_moves mv WHERE mv.service_id = ${id} AND mv.role = '${role}'
      AND mv.state = 'cutover' AND mv.started_at >= ${staleBefore}) THEN NULL
    ELSE COALESCE((SELECT p.node FROM service_placements p WHERE p.service_id = ${id} AND p.role = '${role}'), '') END`;

/**
 * `nodes.hosting_root`: the server's PANEL_HOSTING_ROOT, which its agent reports when it starts
 * ('' until then). The panel writes an FTP account's home (`ftp_accounts.home`) under its own
 * root; ProFTPD on the web server holding the home finds it under that server's root instead: the
 * service's domain, then the account's folder.
 */
const FTP_HOME_ON_ITS_SERVER = `CAST(COALESCE((SELECT n.hosting_root || '/' || r.reference_punycode
      || CASE WHEN f.folder = '' THEN '' ELSE '/' || f.folder END
    FROM service_placements p JOIN nodes n ON n.name = p.node
    WHERE p.service_id = f.service_id AND p.role = 'web' AND n.hosting_root <> ''), f.home) AS varchar(1024))`;

/** The database's clock less 15 minutes, in epoch seconds, as each dialect says it. */
export function staleBefore(db: Kysely<unknown>): string {
  return isPostgres(db)
    ? 'CAST(EXTRACT(EPOCH FROM now()) AS bigint) - 900'
    : "CAST(strftime('%s', 'now') AS integer) - 900";
}

/** The views as this migration makes them (0040 builds on them). */
export const viewsOf = (db: Kysely<unknown>) => daemonViewsWith(nodeOf(staleBefore(db)), FTP_HOME_ON_ITS_SERVER);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('nodes')
    .addColumn('hosting_root', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute();
  await replaceDaemonViews(db, viewsOf(db));
}

/** For `mail sync` and `ftp sync`, which put a view back as the latest migration made it (db/daemon-views.ts). */
export async function createDaemonView(db: Kysely<unknown>, view: DaemonViewName): Promise<void> {
  await sql.raw(viewsOf(db)[view]('CREATE VIEW')).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceDaemonViews(db, PLACED_DAEMON_VIEWS);
  await db.schema.alterTable('nodes').dropColumn('hosting_root').execute();
}
