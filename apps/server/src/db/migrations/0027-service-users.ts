import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-29: every hosting service gets a system user and group of its own
 * (`service_users`), so the kernel keeps one customer's PHP, FTP and files away from another's.
 * The name comes from the service id and is never changed; the uid is taken from the operator's
 * range (PANEL_SERVICE_UID_MIN..MAX) and the group has the same name and number. The unique
 * indexes are what makes two API instances allocating at once safe: the second insert of a uid
 * does nothing and that instance tries the next one. Gone with the service.
 *
 * ProFTPD's view now logs an account in as its service's user; a service without a row (the
 * embedded users driver creates none, or `panel sync` has not run yet) keeps the web server's
 * uid/gid 33, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_users')
    .addColumn('service_id', 'integer', (c) => c.primaryKey().references('resources.id').onDelete('cascade'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('uid', 'integer', (c) => c.notNull().unique())
    .addColumn('gid', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  if (isPostgres(db)) {
    // Same columns and types: PostgreSQL replaces the view in place and keeps its grants
    // (panel247_ftp, deploy/postgresql/daemon-roles.sql).
    await sql.raw(ftpUsersViewSql('CREATE OR REPLACE VIEW')).execute(db);
  } else {
    await sql`DROP VIEW IF EXISTS ftp_users_view`.execute(db);
    await createFtpUsersView(db);
  }
}

/**
 * ProFTPD's SQLUserInfo columns: the account's service's user and group, or 33/33 (the web
 * server's www-data) for a service that has none — what every account had before this migration,
 * and what it keeps while the embedded users driver is configured.
 */
function ftpUsersViewSql(create: 'CREATE VIEW' | 'CREATE OR REPLACE VIEW'): string {
  return `${create} ftp_users_view AS
    SELECT f.login AS userid, f.password_hash AS passwd,
      COALESCE(u.uid, 33) AS uid, COALESCE(u.gid, 33) AS gid,
      f.home AS homedir, '/bin/false' AS shell
    FROM ftp_accounts f JOIN resources r ON r.id = f.service_id
    LEFT JOIN service_users u ON u.service_id = f.service_id
    WHERE r.has_service = 1`;
}

/** Exported for `ftp sync`, which puts the view back as this migration made it (db/daemon-views.ts). */
export async function createFtpUsersView(db: Kysely<unknown>): Promise<void> {
  await sql.raw(ftpUsersViewSql('CREATE VIEW')).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP VIEW IF EXISTS ftp_users_view`.execute(db);
  await sql`CREATE VIEW ftp_users_view AS
    SELECT f.login AS userid, f.password_hash AS passwd, 33 AS uid, 33 AS gid, f.home AS homedir, '/bin/false' AS shell
    FROM ftp_accounts f JOIN resources r ON r.id = f.service_id
    WHERE r.has_service = 1`.execute(db);
  await db.schema.dropTable('service_users').ifExists().execute();
}
