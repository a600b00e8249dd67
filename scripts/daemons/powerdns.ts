import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
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

const SCHEMA = '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql';

export interface PowerDns {
  dnsPort: number;
  apiUrl: string;
  apiKey: string;
  /** Asks this server with dig; returns the answer lines (`+short`) or the chosen sections. */
  dig(name: string, type: string, options?: string[]): Promise<string[]>;
  stop(): Promise<void>;
  /** Starts it again on the same ports and database (after stop). */
  start(): Promise<void>;
  /** What the server printed so far (for a failing test's message). */
  output(): string;
  /** Freezes the process (SIGSTOP): connections are accepted by the kernel and left unanswered. */
  pause(): void;
  /** Lets a paused server run again (SIGCONT): it then handles what it received meanwhile. */
  resume(): void;
  /** The processes it started, by name (for a status). */
  processes(): Record<string, number | undefined>;
}

/** Debian's pdns_server with the sqlite3 backend, from the deploy/ template, on loopback ports. */
export async function startPowerDns(placement: Placement = temporaryPlacement): Promise<PowerDns> {
  const binary = requireBinary('pdns_server', 'pdns-server');
  const dig = requireBinary('dig', 'bind9-dnsutils');
  const dir = await placement.folder('powerdns');
  chmodSync(dir, 0o755);
  const [dnsPort, apiPort] = [await placement.port('powerdns.dns'), await placement.port('powerdns.api')];
  const apiKey = randomBytes(16).toString('hex');
  writeFileSync(
    path.join(dir, 'pdns.conf'),
    fillDeployTemplate('powerdns/pdns.conf.template', {
      DIR: dir,
      DNS_PORT: String(dnsPort),
      API_PORT: String(apiPort),
      API_KEY: apiKey,
    }),
  );
  let schema: string;
  try {
    schema = readFileSync(SCHEMA, 'utf8');
  } catch {
    throw new Error(`${SCHEMA} is missing: install Debian's pdns-backend-sqlite3`);
  }
  // the zones a kept folder already holds stay: the schema goes into a new database only
  const databaseFile = path.join(dir, 'pdns.sqlite');
  if (!existsSync(databaseFile)) {
    const database = new SQLite(databaseFile);
    database.exec(schema);
    database.close();
  }

  let daemon: RunningDaemon | undefined;
  const start = async () => {
    daemon = startForeground(binary, [`--config-dir=${dir}`]);
    try {
      await waitForPort(apiPort);
      await waitForPort(dnsPort);
    } catch (error) {
      await daemon.stop();
      throw new Error(`pdns_server did not start: ${(error as Error).message}\n${daemon.output()}`);
    }
  };
  await start();

  return {
    dnsPort,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    apiKey,
    async dig(name, type, options = ['+short']) {
      const { stdout } = await execFileAsync(dig, [
        '@127.0.0.1',
        '-p',
        String(dnsPort),
        '+time=2',
        '+tries=1',
        ...options,
        name,
        type,
      ]);
      return stdout
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith(';'));
    },
    stop: async () => daemon?.stop(),
    start,
    output: () => daemon?.output() ?? '',
    pause: () => daemon?.process.kill('SIGSTOP'),
    resume: () => daemon?.process.kill('SIGCONT'),
    processes: () => ({ powerdns: daemon?.process.pid }),
  };
}
