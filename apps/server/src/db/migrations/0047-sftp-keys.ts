import { type Kysely, sql } from 'kysely';
import { type DaemonViewName, replaceDaemonViews } from './0036-service-placements.ts';
import { nodeOf, staleBefore } from './0037-moving-parts-served-nowhere.ts';
import { viewsOf as suspendedViews } from './0040-suspended-services-logins.ts';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-12-01: SFTP with the keys customers add, and the service's own login.
 *
 * - `ssh_keys`: a service's public keys, each for one login: an FTP account (`ftp_account_id`) or
 *   the service's own login (NULL). Kept as typed (`public_key`, OpenSSH's one line) and as RFC
 *   4716 text (`rfc4716`), the form mod_sftp_sql reads, with what the panel shows of it.
 * - `service_users.home`: the service's home on the panel's hosting root ('' until the panel has
 *   written it: the root is the panel's setting, not the database's).
 * - `ftp_users_view` gains one row per service with a system user and a home: its own login, the
 *   service's domain, on the whole home as the service's user. Its password is '!', which no
 *   crypt(3) result equals: that login is by key only.
 * - `sftp_keys_view`, which ProFTPD asks for a login's keys (deploy/proftpd): the keys of the
 *   logins `ftp_users_view` has, under the same rules (a suspended service's are left out).
 * - `plans.ssh_keys`: how many keys a service may have.
 */
type Create = 'CREATE VIEW' | 'CREATE OR REPLACE VIEW';
export type SftpViewName = DaemonViewName | 'sftp_keys_view';

const SERVICE_LOGINS_OF = `FROM resources r JOIN service_users u ON u.service_id = r.id
    WHERE r.has_service = 1 AND r.suspended_at IS NULL AND u.home <> ''`;

/** The service's home on the server holding its web part (its root), else the panel's. */
const SERVICE_HOME_ON_ITS_SERVER = `CAST(COALESCE((SELECT n.hosting_root || '/' || r.reference_punycode
      FROM service_placements p JOIN nodes n ON n.name = p.node
      WHERE p.service_id = r.id AND p.role = 'web' AND n.hosting_root <> ''), u.home) AS varchar(1024))`;

export function viewsOf(db: Kysely<unknown>): Record<SftpViewName, (create: Create) => string> {
  const suspended = suspendedViews(db);
  const node = nodeOf(staleBefore(db));
  return {
    ...suspended,
    // each column cast to the first part's type: PostgreSQL replaces a view in place only when
    // its columns keep their types (and so the daemons' grants)
    ftp_users_view: (create) => `${suspended.ftp_users_view(create)}
    UNION ALL
    SELECT CAST(r.reference_punycode AS varchar(320)) AS userid, CAST('!' AS varchar(255)) AS passwd,
      u.uid AS uid, u.gid AS gid, ${SERVICE_HOME_ON_ITS_SERVER} AS homedir, '/bin/false' AS shell,
      ${node('r.id', 'web')} AS node
    ${SERVICE_LOGINS_OF}`,
    sftp_keys_view: (create) => `${create} sftp_keys_view AS
    SELECT f.login AS userid, k.rfc4716 AS sshkey, ${node('f.service_id', 'web')} AS node
    FROM ssh_keys k JOIN ftp_accounts f ON f.id = k.ftp_account_id JOIN resources r ON r.id = f.service_id
    WHERE r.has_service = 1 AND r.suspended_at IS NULL
    UNION ALL
    SELECT CAST(r.reference_punycode AS varchar(320)) AS userid, k.rfc4716 AS sshkey, ${node('r.id', 'web')} AS node
    FROM ssh_keys k JOIN resources r ON r.id = k.service_id JOIN service_users u ON u.service_id = r.id
    WHERE k.ftp_account_id IS NULL AND r.has_service = 1 AND r.suspended_at IS NULL AND u.home <> ''`,
  };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('ssh_keys'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('ftp_account_id', 'integer', (c) => c.references('ftp_accounts.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('algorithm', 'varchar(32)', (c) => c.notNull())
    .addColumn('bits', 'integer', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('rfc4716', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ssh_keys_service_idx').on('ssh_keys').columns(['service_id', 'id']).execute();
  await db.schema.createIndex('ssh_keys_account_idx').on('ssh_keys').column('ftp_account_id').execute();
  await db.schema
    .alterTable('service_users')
    .addColumn('home', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('plans')
    .addColumn('ssh_keys', 'integer', (c) => c.defaultTo(10))
    .execute();
  await replaceDaemonViews(db, viewsOf(db));
}

/** For `ftp sync`, which puts a view back as the latest migration made it (db/daemon-views.ts). */
export async function createDaemonView(db: Kysely<unknown>, view: SftpViewName): Promise<void> {
  await sql.raw(viewsOf(db)[view]('CREATE VIEW')).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropView('sftp_keys_view').ifExists().execute();
  // PostgreSQL cannot take a part out of a view in place either way: made again
  await db.schema.dropView('ftp_users_view').ifExists().execute();
  await sql.raw(suspendedViews(db).ftp_users_view('CREATE VIEW')).execute(db);
  await db.schema.dropTable('ssh_keys').ifExists().execute();
  await db.schema.alterTable('plans').dropColumn('ssh_keys').execute();
  await db.schema.alterTable('service_users').dropColumn('home').execute();
}
