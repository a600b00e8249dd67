import { type Kysely, sql } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/** Frozen on 2026-11-22: FTP accounts and the view ProFTPD's mod_sql reads. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('ftp_accounts'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('login', 'varchar(320)', (c) => c.notNull().unique())
    .addColumn('folder', 'varchar(255)', (c) => c.notNull())
    /** crypt(3) hash ProFTPD checks: bcrypt, stored as $2y$ (bcryptjs writes $2b$, the same algorithm). */
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    /** AES-256-GCM copy for "show password". */
    .addColumn('password_sealed', 'varchar(512)', (c) => c.notNull())
    .addColumn('home', 'varchar(1024)', (c) => c.notNull())
    .addColumn('eliminable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await createFtpUsersView(db);
}

/**
 * ProFTPD's SQLUserInfo columns; the uid/gid are the web server's, so sites can read uploads.
 * Exported for `ftp sync`, which puts the view back as this migration made it (db/daemon-views.ts).
 */
export async function createFtpUsersView(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIEW ftp_users_view AS
    SELECT f.login AS userid, f.password_hash AS passwd, 33 AS uid, 33 AS gid, f.home AS homedir, '/bin/false' AS shell
    FROM ftp_accounts f JOIN resources r ON r.id = f.service_id
    WHERE r.has_service = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP VIEW IF EXISTS ftp_users_view`.execute(db);
  await db.schema.dropTable('ftp_accounts').ifExists().execute();
}
