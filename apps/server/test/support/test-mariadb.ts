import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { parseAdminUrl } from '../../src/drivers/databases/mariadb.driver.ts';

/** The MariaDB server the database tests use (root without a password on this kind of machine). */
export const TEST_MARIADB_URL = process.env.PANEL_TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';

/**
 * Whether the test MariaDB answers. In CI (CI=true) an unreachable server is an error, never a
 * skip; on a developer's machine without MariaDB the MariaDB tests are skipped.
 */
export async function mariadbReachable(): Promise<boolean> {
  try {
    const connection = await mysql.createConnection({ ...adminOptions(), connectTimeout: 3000 });
    await connection.end();
    return true;
  } catch (error) {
    if (process.env.CI === 'true') {
      throw new Error(`MariaDB is needed for these tests (${TEST_MARIADB_URL}): ${(error as Error).message}`);
    }
    return false;
  }
}

export function adminOptions() {
  const admin = parseAdminUrl(TEST_MARIADB_URL);
  return {
    host: admin.host,
    port: admin.port,
    user: admin.user,
    password: admin.password,
    ...(admin.socketPath ? { socketPath: admin.socketPath } : {}),
  };
}

/** A prefix no other run uses, so runs on the shared server never collide. */
export function randomNamePrefix(): string {
  return `t${randomBytes(4).toString('hex')}_`;
}

/** Drops every database and user whose name starts with the prefix (the test's own leftovers). */
export async function dropEverythingWithPrefix(prefix: string): Promise<void> {
  if (!/^t[0-9a-f]{8}_$/.test(prefix)) throw new Error(`not a test prefix: ${prefix}`);
  const connection = await mysql.createConnection(adminOptions());
  try {
    const [schemas] = await connection.query<mysql.RowDataPacket[]>(
      'SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE ?',
      [`${prefix.replace('_', '\\_')}%`],
    );
    for (const { name } of schemas) await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    const [users] = await connection.query<mysql.RowDataPacket[]>(
      'SELECT User AS user, Host AS host FROM mysql.user WHERE User LIKE ?',
      [`${prefix.replace('_', '\\_')}%`],
    );
    for (const { user, host } of users) await connection.query('DROP USER IF EXISTS ?@?', [user, host]);
  } finally {
    await connection.end();
  }
}
