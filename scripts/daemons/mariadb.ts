import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  execFileAsync,
  type Placement,
  type RunningDaemon,
  requireBinary,
  startForeground,
  temporaryPlacement,
  waitForPort,
} from './daemon-harness.ts';
import { readOr } from './nginx-php.ts';

export interface PrivateMariaDb {
  port: number;
  /** The panel's admin login (all privileges, with grant), e.g. for PANEL_DATABASES_URL. */
  adminUrl: string;
  /** Runs SQL through the server's socket as its root, with the client (an argument array). */
  query(sql: string): Promise<string>;
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

const ADMIN_USER = 'panel247';

/**
 * A MariaDB server of its own (Debian's mariadbd) on a loopback port, with its data in the
 * placement's folder: `mariadb-install-db` makes the data folder once, then each start runs the
 * server on it and (re)sets the panel's admin login with a new password. Root logs in only through
 * the server's own socket (unix_socket), as Debian sets it up.
 */
export async function startPrivateMariaDb(
  placement: Placement = temporaryPlacement,
  /** Where it takes TCP logins besides loopback (a server's own address in its namespace). */
  options: { address?: string } = {},
): Promise<PrivateMariaDb> {
  const server = requireBinary('mariadbd', 'mariadb-server');
  const install = requireBinary('mariadb-install-db', 'mariadb-server');
  const client = requireBinary('mariadb', 'mariadb-client');
  const dir = await placement.folder('mariadb');
  chmodSync(dir, 0o755);
  const dataDir = path.join(dir, 'data');
  const socket = path.join(dir, 'mariadb.sock');
  const errorLog = path.join(dir, 'error.log');
  const port = await placement.port('mariadb.sql');
  const asRoot = process.getuid?.() === 0;
  // as root the server drops to Debian's mysql user, which must own its data and socket folder
  const owner = asRoot ? ['--user=mysql'] : [];
  const mysqlUid = asRoot ? Number((await execFileAsync('id', ['-u', 'mysql'])).stdout) : undefined;
  if (mysqlUid !== undefined) chownSync(dir, mysqlUid, 0);
  // its temporary tables in a folder of its own: two servers bootstrapping at once in the shared
  // /tmp once lost one's to the other ("Could not remove temporary table", install-db aborted)
  const tmpDir = path.join(dir, 'tmp');
  mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
  if (mysqlUid !== undefined) chownSync(tmpDir, mysqlUid, 0);

  if (!existsSync(path.join(dataDir, 'mysql'))) {
    mkdirSync(dataDir, { recursive: true });
    try {
      await execFileAsync(install, [
        '--no-defaults',
        `--datadir=${dataDir}`,
        '--auth-root-authentication-method=socket',
        '--skip-test-db',
        `--tmpdir=${tmpDir}`,
        ...owner,
      ]);
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`mariadb-install-db failed: ${(error as Error).message}`);
    }
  }
  rmSync(socket, { force: true });
  const daemon: RunningDaemon = startForeground(server, [
    '--no-defaults',
    `--datadir=${dataDir}`,
    `--socket=${socket}`,
    `--port=${port}`,
    // MariaDB 10.11 takes a comma list
    `--bind-address=${['127.0.0.1', ...(options.address ? [options.address] : [])].join(',')}`,
    `--pid-file=${path.join(dir, 'mariadb.pid')}`,
    `--log-error=${errorLog}`,
    '--skip-name-resolve',
    `--tmpdir=${tmpDir}`,
    ...owner,
  ]);
  const query = async (sql: string) =>
    (await execFileAsync(client, ['--no-defaults', `--socket=${socket}`, '-u', 'root', '-N', '-e', sql])).stdout;
  try {
    await waitForPort(port, 30_000);
  } catch (error) {
    await daemon.stop();
    throw new Error(`mariadbd did not start: ${(error as Error).message}\n${daemon.output()}\n${readOr(errorLog)}`);
  }
  const password = randomBytes(18).toString('hex');
  for (const host of ['127.0.0.1', 'localhost']) {
    await query(
      `CREATE USER IF NOT EXISTS '${ADMIN_USER}'@'${host}' IDENTIFIED BY '${password}'; ` +
        `ALTER USER '${ADMIN_USER}'@'${host}' IDENTIFIED BY '${password}'; ` +
        `GRANT ALL PRIVILEGES ON *.* TO '${ADMIN_USER}'@'${host}' WITH GRANT OPTION;`,
    );
  }
  return {
    port,
    adminUrl: `mysql://${ADMIN_USER}:${password}@127.0.0.1:${port}`,
    query,
    processes: () => ({ mariadb: daemon.process.pid }),
    async stop() {
      await daemon.stop();
      if (placement.temporary) rmSync(dir, { recursive: true, force: true });
    },
  };
}
