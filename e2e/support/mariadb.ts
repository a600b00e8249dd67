import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The MariaDB the e2e servers create their databases on (root, no password, on this machine). */
export const MARIADB_URL = process.env.E2E_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';

/** Runs SQL with Debian's `mariadb` client (argument array, password through the environment). */
export async function mariadbQuery(sql: string, url = MARIADB_URL): Promise<string[][]> {
  const parsed = new URL(url);
  const args = [
    '--protocol=tcp',
    `--host=${parsed.hostname || '127.0.0.1'}`,
    `--port=${parsed.port || '3306'}`,
    `--user=${decodeURIComponent(parsed.username) || 'root'}`,
    '--batch',
    '--skip-column-names',
    '--execute',
    sql,
  ];
  const { stdout } = await execFileAsync('mariadb', args, {
    env: { ...process.env, MYSQL_PWD: decodeURIComponent(parsed.password) },
    timeout: 30_000,
  });
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}

/** `prefix` as a LIKE pattern matching the names that start with it (its `_` taken literally). */
function likePrefix(prefix: string): string {
  if (!/^[a-z0-9_]+$/.test(prefix)) throw new Error(`unexpected database prefix ${prefix}`);
  return `${prefix.replaceAll('_', '\\\\_')}%`;
}

/** The databases and users whose names start with `prefix` (what one e2e server made). */
export async function mariadbLeftovers(prefix: string): Promise<{ databases: string[]; users: string[] }> {
  const like = likePrefix(prefix);
  const databases = (await mariadbQuery(`SHOW DATABASES LIKE '${like}'`)).map((row) => row[0] ?? '');
  const users = (await mariadbQuery(`SELECT CONCAT(User, '@', Host) FROM mysql.user WHERE User LIKE '${like}'`)).map(
    (row) => row[0] ?? '',
  );
  return { databases, users };
}

/** Drops every database and user whose name starts with `prefix`. */
export async function dropMariadbPrefix(prefix: string): Promise<void> {
  const like = likePrefix(prefix);
  for (const [name] of await mariadbQuery(`SHOW DATABASES LIKE '${like}'`)) {
    if (name) await mariadbQuery(`DROP DATABASE IF EXISTS \`${name}\``);
  }
  for (const [user, host] of await mariadbQuery(`SELECT User, Host FROM mysql.user WHERE User LIKE '${like}'`)) {
    if (user && host !== undefined) await mariadbQuery(`DROP USER IF EXISTS '${user}'@'${host}'`);
  }
}
