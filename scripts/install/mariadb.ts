import type { Step } from './context.ts';
import type { Secrets } from './env-file.ts';
import { run } from './system.ts';

/**
 * The panel's own MariaDB admin login (docs/OPERATIONS.md, "Databases with MariaDB and
 * phpMyAdmin"): able to create databases and users and to grant, over loopback TCP only. Never
 * root's: root keeps Debian's unix-socket login, which is how the installer itself gets in.
 */
export const MARIADB_ADMIN = 'panel247';
export const MARIADB_ADDRESS = '127.0.0.1';
export const MARIADB_PORT = '3306';

/** The panel's PANEL_DATABASES_URL (the password is generated hex: nothing to escape). */
export function mariadbUrl(secrets: Secrets): string {
  return `mysql://${MARIADB_ADMIN}:${secrets.MARIADB_ADMIN_PASSWORD}@${MARIADB_ADDRESS}:${MARIADB_PORT}`;
}

/** The SQL that makes (or puts right) the admin login, given on root's standard input. */
export function adminLoginSql(secrets: Secrets): string {
  const account = `'${MARIADB_ADMIN}'@'${MARIADB_ADDRESS}'`;
  const password = secrets.MARIADB_ADMIN_PASSWORD;
  if (!/^[0-9a-f]+$/.test(password)) throw new Error('the MariaDB admin password must be generated hex');
  return [
    `CREATE USER IF NOT EXISTS ${account} IDENTIFIED BY '${password}';`,
    `ALTER USER ${account} IDENTIFIED BY '${password}';`,
    `GRANT ALL PRIVILEGES ON *.* TO ${account} WITH GRANT OPTION;`,
    '',
  ].join('\n');
}

/** True when the admin logs in with the kept password and holds every privilege with GRANT. */
async function adminLoginWorks(secrets: Secrets): Promise<boolean> {
  const { code, stdout } = await run(
    'mariadb',
    ['--protocol=tcp', '-h', MARIADB_ADDRESS, '-P', MARIADB_PORT, '-u', MARIADB_ADMIN, '-N', '-e', 'SHOW GRANTS'],
    // the password in the environment, never in the arguments (ps shows those)
    { env: { ...process.env, MYSQL_PWD: secrets.MARIADB_ADMIN_PASSWORD }, allowedCodes: [1] },
  );
  return code === 0 && /GRANT ALL PRIVILEGES ON \*\.\* TO .* WITH GRANT OPTION/.test(stdout);
}

/**
 * MariaDB running (before the panel's settings name it, so the panel never starts on a server it
 * cannot log in to), with the panel's admin login.
 */
export const mariadbAdminStep: Step = {
  title: "MariaDB and the panel's admin login",
  async run({ secrets, say }) {
    const active = (await run('systemctl', ['is-active', 'mariadb.service'], { allowedCodes: [3, 4] })).stdout.trim();
    if (active !== 'active') {
      await run('systemctl', ['enable', '--now', 'mariadb.service']);
      say('started mariadb.service');
    }
    if (await adminLoginWorks(secrets)) {
      say(`the admin login ${MARIADB_ADMIN}@${MARIADB_ADDRESS} works`);
      return;
    }
    // root over Debian's unix socket; the SQL (with the password) on standard input
    await run('mariadb', ['-u', 'root'], { input: adminLoginSql(secrets) });
    if (!(await adminLoginWorks(secrets)))
      throw new Error(`the MariaDB login ${MARIADB_ADMIN} does not work once made`);
    say(`made the MariaDB admin login ${MARIADB_ADMIN}@${MARIADB_ADDRESS} (all privileges, with GRANT)`);
  },
};
