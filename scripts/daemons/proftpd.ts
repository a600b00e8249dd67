import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { ensureSftpHostKeys } from './sftp-host-keys.ts';

export type FtpDatabase = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** How an `sftp` client proves who it is: a private key file, or a password (given through SSH_ASKPASS). */
export type SftpCredential = { key: string } | { password: string };

export interface ProFtpd {
  port: number;
  /** The SFTP server's port (mod_sftp, same logins). */
  sftpPort: number;
  /**
   * OpenSSH's `sftp` as the client, running `commands` in batch mode; resolves with its exit code
   * (0: every command worked; 255: the login was refused) and output.
   */
  sftp(user: string, credential: SftpCredential, commands: string[]): Promise<SftpResult>;
  /** curl as the FTP client; resolves with curl's exit code (0 ok, 67 login refused) and output. */
  curl(user: string, password: string, args: string[], urlPath?: string): Promise<{ code: number; stdout: string }>;
  /** The processes it started, by name (for a status). */
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

export interface SftpResult {
  code: number;
  stdout: string;
  stderr: string;
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
  const sftpPort = await placement.port('proftpd.sftp');
  ensureSftpHostKeys(dir);
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
    SFTP_PORT: String(sftpPort),
    HOST_KEY_DIR: dir,
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
    await waitForPort(sftpPort, undefined, address);
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
    sftpPort,
    sftp: (user, credential, commands) => runSftp(dir, address, sftpPort, user, credential, commands),
    processes: () => ({ proftpd: daemon.process.pid }),
    stop: () => daemon.stop(),
  };
}

/**
 * One `sftp` session in batch mode. Host keys are not remembered (a test server's key is new each
 * run); a key login offers that key only, a password login no key (SSH_ASKPASS answers the prompt,
 * as batch mode reads no terminal).
 */
async function runSftp(
  dir: string,
  address: string,
  port: number,
  user: string,
  credential: SftpCredential,
  commands: string[],
): Promise<SftpResult> {
  const sftp = requireBinary('sftp', 'openssh-client');
  const batch = path.join(dir, `sftp-batch-${process.pid}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(batch, `${commands.join('\n')}\n`);
  const askpass = path.join(dir, 'sftp-askpass.sh');
  writeFileSync(askpass, '#!/bin/sh\nprintf \'%s\\n\' "$P247_SFTP_PASSWORD"\n', { mode: 0o700 });
  const common = [
    '-P',
    String(port),
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'LogLevel=ERROR',
    '-o',
    'ConnectTimeout=10',
    '-o',
    'NumberOfPasswordPrompts=1',
  ];
  const how =
    'key' in credential
      ? [
          '-o',
          'IdentitiesOnly=yes',
          '-o',
          'PreferredAuthentications=publickey',
          '-o',
          'BatchMode=yes',
          '-i',
          credential.key,
        ]
      : [
          '-o',
          'PubkeyAuthentication=no',
          '-o',
          'PreferredAuthentications=password,keyboard-interactive',
          '-o',
          'BatchMode=no',
        ];
  const env = {
    ...process.env,
    SSH_ASKPASS: askpass,
    SSH_ASKPASS_REQUIRE: 'force',
    DISPLAY: ':0',
    P247_SFTP_PASSWORD: 'password' in credential ? credential.password : '',
  };
  try {
    const { stdout, stderr } = await execFileAsync(sftp, [...common, ...how, '-b', batch, `${user}@${address}`], {
      env,
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failure.code === 'number' ? failure.code : -1,
      stdout: failure.stdout ?? '',
      stderr: failure.stderr ?? '',
    };
  } finally {
    rmSync(batch, { force: true });
  }
}
