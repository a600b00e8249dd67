import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
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
import { fillDeployTemplate } from './deploy-template.ts';

export type FtpDatabase = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface ProFtpd {
  port: number;
  /** curl as the FTP client; resolves with curl's exit code (0 ok, 67 login refused) and output. */
  curl(user: string, password: string, args: string[], urlPath?: string): Promise<{ code: number; stdout: string }>;
  /** The processes it started, by name (for a status). */
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

/** Debian's ProFTPD with mod_sql from the deploy/ template, on loopback. */
export async function startProFtpd(
  database: FtpDatabase,
  placement: Placement = temporaryPlacement,
  /** The server it is (PANEL_NODE): it logs in only the accounts of the homes placed on it ('' : the unnamed machine). */
  node = '',
  /** Where it listens (a server's own address in its namespace); loopback by default. */
  address = '127.0.0.1',
): Promise<ProFtpd> {
  const proftpd = requireBinary('proftpd', 'proftpd-core');
  const curl = requireBinary('curl', 'curl');
  const dir = await placement.folder('proftpd');
  chmodSync(dir, 0o755);
  const port = await placement.port('proftpd.ftp');
  // passive data ports: 21 from a base the placement keeps (the stack's stay the same)
  const pasv = placement.temporary
    ? 40_000 + Math.floor(Math.random() * 20_000)
    : 40_000 + ((await placement.port('proftpd.pasv')) % 20_000);
  const connect =
    database.kind === 'sqlite'
      ? database.file
      : (() => {
          const url = new URL(database.url);
          return `${url.pathname.slice(1)}@${url.hostname}:${url.port || 5432} ${decodeURIComponent(url.username)} ${decodeURIComponent(url.password)}`.trim();
        })();
  const config = fillDeployTemplate('proftpd/proftpd.conf.template', {
    DIR: dir,
    ADDRESS: address,
    BIND_TIGHT: 'on',
    PORT: String(port),
    PASV_MIN: String(pasv),
    PASV_MAX: String(pasv + 20),
    SQL_MODULE: database.kind === 'sqlite' ? 'mod_sql_sqlite.c' : 'mod_sql_postgres.c',
    SQL_BACKEND: database.kind === 'sqlite' ? 'sqlite3' : 'postgres',
    CONNECT: connect,
    NODE: node,
  });
  const file = path.join(dir, 'proftpd.conf');
  writeFileSync(file, config);
  const daemon: RunningDaemon = startForeground(proftpd, ['-n', '-c', file]);
  try {
    await waitForPort(port, undefined, address);
  } catch (error) {
    await daemon.stop();
    const log = (() => {
      try {
        return readFileSync(path.join(dir, 'proftpd.log'), 'utf8');
      } catch {
        return '';
      }
    })();
    throw new Error(`proftpd did not start: ${(error as Error).message}\n${daemon.output()}\n${log}`);
  }
  return {
    port,
    async curl(user, password, args, urlPath = '/') {
      try {
        const { stdout } = await execFileAsync(curl, [
          '-s',
          '--max-time',
          '10',
          '--user',
          `${user}:${password}`,
          ...args,
          `ftp://${address}:${port}${urlPath}`,
        ]);
        return { code: 0, stdout };
      } catch (error) {
        const failure = error as { code?: number; stdout?: string };
        return { code: typeof failure.code === 'number' ? failure.code : -1, stdout: failure.stdout ?? '' };
      }
    },
    processes: () => ({ proftpd: daemon.process.pid }),
    stop: () => daemon.stop(),
  };
}
