import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { DEPLOY, fillDeployTemplate } from './deploy-template.ts';
import type { NodeNamespace } from './netns.ts';

const SQLITE_SCHEMA = '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql';
const PGSQL_SCHEMA = '/usr/share/pdns-backend-pgsql/schema/schema.pgsql.sql';
const DAEMON_DATABASE_SQL = path.join(DEPLOY, 'postgresql', 'daemon-database.sql');

export interface PowerDns {
  /** Where it answers DNS: 127.0.0.1, or its namespace's address. */
  dnsAddress: string;
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

/** Where PowerDNS keeps its zones: a SQLite file in its folder, or a PostgreSQL database of its own. */
export type PowerDnsBackend =
  | { kind: 'sqlite' }
  /** `adminUrl` is a superuser's: the database and its role are made with deploy/postgresql/daemon-database.sql. */
  | { kind: 'postgres'; adminUrl: string; name: string };

/** A name server's part in replication (deploy/powerdns/primary.conf.template, secondary.conf.template). */
export type PowerDnsReplication =
  /** Also answers on `listen` (an `ip:53` its secondaries reach) and NOTIFYs `secondaries`. */
  | { role: 'primary'; listen: string; secondaries: string[] }
  /** In a network namespace, on port 53 of its address; trusts `primary` under the name `nameserver`. */
  | { role: 'secondary'; namespace: NodeNamespace; primary: string; nameserver: string };

/**
 * Debian's pdns_server from the deploy/ templates (pdns.conf and one backend file in its
 * include-dir), on loopback ports; or a primary or secondary of the others (`replication`).
 */
export async function startPowerDns(
  placement: Placement = temporaryPlacement,
  backend: PowerDnsBackend = { kind: 'sqlite' },
  replication?: PowerDnsReplication,
): Promise<PowerDns> {
  const binary = requireBinary('pdns_server', 'pdns-server');
  const dig = requireBinary('dig', 'bind9-dnsutils');
  const dir = await placement.folder('powerdns');
  chmodSync(dir, 0o755);
  const [dnsPort, apiPort] = [await placement.port('powerdns.dns'), await placement.port('powerdns.api')];
  const apiKey = randomBytes(16).toString('hex');
  const includeDir = path.join(dir, 'pdns.d');
  // the backend file is written anew at each start: a kept folder may have had the other one
  rmSync(includeDir, { recursive: true, force: true });
  mkdirSync(includeDir);
  const secondary = replication?.role === 'secondary' ? replication : undefined;
  // a secondary answers at its server's own address, on the port name servers use
  const dnsAddress = secondary ? secondary.namespace.address : '127.0.0.1';
  writeFileSync(
    path.join(dir, 'pdns.conf'),
    fillDeployTemplate('powerdns/pdns.conf.template', {
      INCLUDE_DIR: includeDir,
      LISTEN: secondary
        ? `${dnsAddress}:53`
        : replication?.role === 'primary'
          ? `127.0.0.1, ${replication.listen}`
          : '127.0.0.1',
      SOCKET_DIR: dir,
      DNS_PORT: String(dnsPort),
      API_PORT: String(apiPort),
      API_KEY: apiKey,
    }),
  );
  const [template, values] =
    backend.kind === 'sqlite'
      ? ['powerdns/backend-gsqlite3.conf.template', { DATABASE: sqliteDatabase(dir) }]
      : ['powerdns/backend-gpgsql.conf.template', await postgresDatabase(backend)];
  writeFileSync(path.join(includeDir, 'panel247-backend.conf'), fillDeployTemplate(template, values), { mode: 0o600 });
  if (replication?.role === 'primary') {
    writeFileSync(
      path.join(includeDir, 'panel247-primary.conf'),
      fillDeployTemplate('powerdns/primary.conf.template', {
        SECONDARIES: replication.secondaries.join(', '),
        AXFR_FROM: replication.secondaries.map((address) => address.replace(/:\d+$/, '')).join(', '),
      }),
    );
  }
  if (secondary) {
    writeFileSync(
      path.join(includeDir, 'panel247-secondary.conf'),
      fillDeployTemplate('powerdns/secondary.conf.template', { PRIMARY: secondary.primary }),
    );
    // as the operator does once: the primary it takes zones from, under one of the NS names
    await execFileAsync(requireBinary('pdnsutil', 'pdns-server'), [
      `--config-dir=${dir}`,
      'add-autoprimary',
      secondary.primary,
      secondary.nameserver,
    ]).catch((error: Error) => {
      // already there (a kept folder): pdnsutil refuses a duplicate
      if (!/exist|duplicate|UNIQUE/i.test(error.message)) throw error;
    });
  }

  let daemon: RunningDaemon | undefined;
  const start = async () => {
    const command = secondary
      ? secondary.namespace.wrap(binary, [`--config-dir=${dir}`])
      : { command: binary, args: [`--config-dir=${dir}`] };
    daemon = startForeground(command.command, command.args);
    try {
      // a secondary's API listens on its namespace's own loopback: only its DNS is asked
      if (!secondary) await waitForPort(apiPort);
      await waitForPort(secondary ? 53 : dnsPort, 60_000, dnsAddress);
    } catch (error) {
      await daemon.stop();
      throw new Error(`pdns_server did not start: ${(error as Error).message}\n${daemon.output()}`);
    }
  };
  await start();

  const answeringPort = secondary ? 53 : dnsPort;
  return {
    dnsAddress,
    dnsPort: answeringPort,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    apiKey,
    async dig(name, type, options = ['+short']) {
      const { stdout } = await execFileAsync(dig, [
        `@${dnsAddress}`,
        '-p',
        String(answeringPort),
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

/** Its SQLite file with Debian's schema; the zones a kept folder already holds stay. */
function sqliteDatabase(dir: string): string {
  let schema: string;
  try {
    schema = readFileSync(SQLITE_SCHEMA, 'utf8');
  } catch {
    throw new Error(`${SQLITE_SCHEMA} is missing: install Debian's pdns-backend-sqlite3`);
  }
  // the name a kept folder's earlier runs gave it (the file's name is the template's DATABASE)
  const databaseFile = path.join(dir, 'pdns.sqlite');
  if (!existsSync(databaseFile)) {
    const database = new SQLite(databaseFile);
    database.exec(schema);
    database.close();
  }
  return databaseFile;
}

/** Its PostgreSQL role, database and schema, made as the guide makes them (psql, daemon-database.sql). */
async function postgresDatabase(backend: { adminUrl: string; name: string }): Promise<Record<string, string>> {
  if (!existsSync(PGSQL_SCHEMA)) throw new Error(`${PGSQL_SCHEMA} is missing: install Debian's pdns-backend-pgsql`);
  const psql = requireBinary('psql', 'postgresql-client');
  const password = randomBytes(16).toString('hex');
  await execFileAsync(psql, [
    '-X',
    '-q',
    '-d',
    backend.adminUrl,
    '-v',
    `name=${backend.name}`,
    '-v',
    `password=${password}`,
    '-v',
    'set_passwords=on',
    '-v',
    `schema=${PGSQL_SCHEMA}`,
    '-v',
    'probe=domains',
    '-f',
    DAEMON_DATABASE_SQL,
  ]);
  const admin = new URL(backend.adminUrl);
  return {
    PG_HOST: admin.hostname,
    PG_PORT: admin.port || '5432',
    PG_DBNAME: backend.name,
    PG_USER: backend.name,
    PG_PASSWORD: password,
  };
}
