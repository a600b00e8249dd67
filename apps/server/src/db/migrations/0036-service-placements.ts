import { type Kysely, sql } from 'kysely';
import { createMailDomainsView, createMailUsersView } from './0004-mail.ts';
import { createMailAliasesView } from './0009-mail-catch-all.ts';
import { createFtpUsersView } from './0027-service-users.ts';
import { createMailSendersView } from './0030-mail-senders-view.ts';
import { isPostgres } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-30: which of the provider's servers holds each part of a hosting service, and
 * the addresses of each server.
 *
 * - The daemons' views get a last column, `node`: the server holding the row's part ('' for the
 *   unnamed machine), mail for the mail views, web for FTP's (it serves the home). Each server's
 *   Dovecot, Postfix and ProFTPD ask only for their own (`WHERE node = '@NODE@'` in deploy/), so
 *   a mail server never takes mail for a domain another one holds. On PostgreSQL the views are
 *   replaced in place (a column added at the end), which keeps the daemons' roles' grants.
 *
 * - `service_moves`: a part of a service on its way to another server (`panel node move`): its
 *   files are being copied (`copying`), or the final copy is being made and its changes wait
 *   (`cutover`: the service's web and FTP changes and file writes are refused for those seconds).
 * - `nodes.ipv4`, `nodes.ipv6`: the server's public addresses ('' : none given), which the
 *   records a zone gets from the provider's settings (`{web_ipv4}`, `{mail_ipv4}`…) take for a
 *   service placed on it.
 * - `service_placements`: one row per service and role (web: its home, sites, PHP pools and FTP
 *   logins; mail: its mailboxes; databases: its MariaDB databases), naming the server (`nodes.name`).
 *   A service with no row for a role has that part on the server without a name: the control
 *   plane's own machine, as every service had before servers were data. The server is named, not
 *   referenced by id, because agents and the work log's queues know servers by name; removing a
 *   server that still holds parts is refused by the service, not by a foreign key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_placements')
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('node', 'varchar(63)', (c) => c.notNull())
    .addColumn('placed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('service_placements_pk', ['service_id', 'role'])
    .execute();
  await replaceDaemonViews(db, VIEWS);
  await db.schema
    .alterTable('nodes')
    .addColumn('ipv4', 'varchar(15)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('nodes')
    .addColumn('ipv6', 'varchar(39)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createTable('service_moves')
    .addColumn('service_id', 'integer', (c) => c.primaryKey().references('resources.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('from_node', 'varchar(63)', (c) => c.notNull())
    .addColumn('to_node', 'varchar(63)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('service_placements_node').on('service_placements').columns(['node', 'role']).execute();
}

/** The server holding the `role` part of service `id`, '' for the unnamed machine. */
const nodeOf = (id: string, role: 'mail' | 'web') =>
  `COALESCE((SELECT p.node FROM service_placements p WHERE p.service_id = ${id} AND p.role = '${role}'), '')`;

type Create = 'CREATE VIEW' | 'CREATE OR REPLACE VIEW';
export type DaemonViewName =
  | 'mail_domains_view'
  | 'mail_users_view'
  | 'mail_aliases_view'
  | 'mail_senders_view'
  | 'ftp_users_view';

/**
 * Each daemon view as migrations 0004, 0009, 0027 and 0030 left it, with its server last, as the
 * SQL `node` makes it (a later migration gives another: 0037).
 */
export const daemonViewsWith = (
  node: typeof nodeOf,
  /** The FTP login's home as ProFTPD takes it (0037: on its own server's hosting root). */
  ftpHome = 'f.home',
): Record<DaemonViewName, (create: Create) => string> => ({
  mail_domains_view: (create) => `${create} mail_domains_view AS
    SELECT DISTINCT r.reference_punycode AS domain, ${node('r.id', 'mail')} AS node
    FROM resources r WHERE r.has_mail = 1`,
  mail_users_view: (create) => `${create} mail_users_view AS
    SELECT m.local_part || '@' || r.reference_punycode AS email,
           r.reference_punycode AS domain,
           m.local_part AS local_part,
           m.password_hash AS password,
           m.quota_bytes AS quota_bytes,
           ${node('r.id', 'mail')} AS node
    FROM mailboxes m JOIN resources r ON r.id = m.service_id
    WHERE r.has_mail = 1`,
  mail_aliases_view: (create) => `${create} mail_aliases_view AS
    SELECT a.local_part || '@' || r.reference_punycode AS source, a.targets AS destination,
           ${node('r.id', 'mail')} AS node
    FROM mail_aliases a JOIN resources r ON r.id = a.service_id
    WHERE r.has_mail = 1
    UNION ALL
    SELECT m.local_part || '@' || r.reference_punycode AS source,
           m.local_part || '@' || r.reference_punycode AS destination,
           ${node('r.id', 'mail')} AS node
    FROM mailboxes m JOIN resources r ON r.id = m.service_id
    WHERE r.has_mail = 1`,
  // a login sends as an alias of another service of its account: asked where the login is
  mail_senders_view: (create) => `${create} mail_senders_view AS
    SELECT m.local_part || '@' || r.reference_punycode AS sender,
           m.local_part || '@' || r.reference_punycode AS login,
           ${node('r.id', 'mail')} AS node
    FROM mailboxes m JOIN resources r ON r.id = m.service_id
    WHERE r.has_mail = 1
    UNION ALL
    SELECT a.local_part || '@' || ra.reference_punycode AS sender,
           m.local_part || '@' || rm.reference_punycode AS login,
           ${node('rm.id', 'mail')} AS node
    FROM mail_aliases a
    JOIN resources ra ON ra.id = a.service_id
    JOIN resources rm ON rm.account_id = ra.account_id
    JOIN mailboxes m ON m.service_id = rm.id
    WHERE ra.has_mail = 1 AND rm.has_mail = 1 AND a.local_part <> ''
      AND ',' || a.targets || ',' LIKE
        '%,' || REPLACE(REPLACE(REPLACE(m.local_part || '@' || rm.reference_punycode, '\\', '\\\\'), '_', '\\_'), '%', '\\%') || ',%'
        ESCAPE '\\'`,
  ftp_users_view: (create) => `${create} ftp_users_view AS
    SELECT f.login AS userid, f.password_hash AS passwd,
      COALESCE(u.uid, 33) AS uid, COALESCE(u.gid, 33) AS gid,
      ${ftpHome} AS homedir, '/bin/false' AS shell,
      ${node('f.service_id', 'web')} AS node
    FROM ftp_accounts f JOIN resources r ON r.id = f.service_id
    LEFT JOIN service_users u ON u.service_id = f.service_id
    WHERE r.has_service = 1`,
});

/** The views as this migration makes them (0037's `down` puts them back). */
export const PLACED_DAEMON_VIEWS = daemonViewsWith(nodeOf);
const VIEWS = PLACED_DAEMON_VIEWS;

/** Replaces (PostgreSQL: in place, grants kept) or recreates (SQLite) each daemon view. */
export async function replaceDaemonViews(
  db: Kysely<unknown>,
  views: Record<DaemonViewName, (create: Create) => string>,
): Promise<void> {
  for (const [view, create] of Object.entries(views)) {
    if (isPostgres(db)) await sql.raw(create('CREATE OR REPLACE VIEW')).execute(db);
    else {
      await sql`DROP VIEW IF EXISTS ${sql.raw(view)}`.execute(db);
      await sql.raw(create('CREATE VIEW')).execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // the views are what the migrations before made them; PostgreSQL cannot drop a column of a view
  for (const view of Object.keys(VIEWS)) await sql`DROP VIEW IF EXISTS ${sql.raw(view)}`.execute(db);
  await createMailDomainsView(db);
  await createMailUsersView(db);
  await createMailAliasesView(db);
  await createMailSendersView(db);
  await createFtpUsersView(db);
  await db.schema.dropTable('service_moves').ifExists().execute();
  await db.schema.dropTable('service_placements').ifExists().execute();
  await db.schema.alterTable('nodes').dropColumn('ipv6').execute();
  await db.schema.alterTable('nodes').dropColumn('ipv4').execute();
}
