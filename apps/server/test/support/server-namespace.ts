import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createNodeNamespace, type NodeNamespace } from '../../../../scripts/daemons/netns.ts';
import { forwardTcp } from '../../../../scripts/daemons/tcp-forward.ts';
import type { WebServers } from '../../../../scripts/daemons/web.ts';
import { nginxPanelConfig } from './nginx-config.ts';
import { TEST_SECRET_KEY } from './test-app.ts';
import { TEST_PG_ADMIN_URL } from './test-database.ts';

const REPO = path.resolve(import.meta.dirname, '../../../..');
const AGENT = path.join(REPO, 'apps/server/dist/agent.js');
const PANEL_CLI = path.join(REPO, 'apps/server/dist/panel.js');
/** The node channel's port, in each namespace's own port space. */
export const AGENT_CHANNEL_PORT = 8247;

/** Dotted settings (`web.driver`) as the nested JSON of PANEL_CONFIG_FILE. */
function nested(settings: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [dotted, value] of Object.entries(settings)) {
    const parts = dotted.split('.');
    let at = out;
    for (const part of parts.slice(0, -1)) {
      at[part] ??= {};
      at = at[part] as Record<string, unknown>;
    }
    at[parts.at(-1) as string] = value;
  }
  return out;
}

/** Resolves with the first line of the child's output that matches `ready`; rejects if it exits first. */
export function lineOf(child: ChildProcess, ready: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((one) => ready.test(one));
      if (line) resolve(line);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}:\n${seen.slice(-3000)}`)));
  });
}

async function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** Polls `read` every 100 ms until `done` says so, for at most `ms`. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/**
 * A server of the provider's on this machine: a network namespace with its own address, running
 * its own daemons and, once `startAgent` is called, the node agent's bundle
 * (`apps/server/dist/agent.js`) with its own configuration file. It reaches the control plane's
 * PostgreSQL through the host's end of its link, as a server reaches it through the network.
 */
export interface ServerNamespace {
  ns: NodeNamespace;
  /** Its daemons' settings for the panel (drivers' folders and commands), as dotted settings. */
  settings: Record<string, unknown>;
  /** Its node channel: `http://<address>:8247`. */
  channelUrl: string;
  /** The control plane's PostgreSQL as this server reaches it (through the host's end of its link). */
  databaseUrl(url: string): string;
  /** Runs its agent with these settings besides its daemons'; resolves once it is running. */
  startAgent(databaseUrl: string, extra: Record<string, unknown>, env?: Record<string, string>): Promise<ChildProcess>;
  stopAgent(signal?: NodeJS.Signals): Promise<void>;
  /** The running agent's process (to freeze it with SIGSTOP). */
  readonly agent: ChildProcess | undefined;
  /** `panel ARGS` run on this server as its operator would (the agent's configuration and key). */
  panel(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  destroy(): Promise<void>;
}

/** A web server: nginx and PHP-FPM (scripts/daemons/serve-web.ts). */
export interface WebServerNamespace extends ServerNamespace {
  /** The homes on this server (its PANEL_HOSTING_ROOT). */
  homes: string;
  /** A site's answer at this server's address, as a browser would ask (status 0: no answer). */
  site(host: string, pathname?: string): Promise<{ status: number; body: string }>;
  /** Writes a page into a folder of a home on this server, readable by nginx. */
  page(domain: string, folder: string, text: string): void;
  /** ProFTPD's port at the server's address (0: started without FTP). */
  ftpPort: number;
}

/** A mail server: Dovecot and Postfix (scripts/daemons/serve-mail.ts), serving the mail placed on it. */
export interface MailServerNamespace extends ServerNamespace {
  imapPort: number;
  smtpPort: number;
  mailRoot: string;
}

/**
 * The namespace, its link to PostgreSQL and its daemons (`script` run inside it, printing one JSON
 * line), and the agent and CLI that run there with `settings`.
 */
async function startServerNamespace<P>(
  name: string,
  slot: number,
  script: (ns: NodeNamespace, forwarded: (url: string) => string) => string[],
  settingsOf: (printed: P) => Record<string, unknown>,
): Promise<{ server: ServerNamespace; printed: P }> {
  if (!existsSync(AGENT)) execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: REPO });
  const ns = await createNodeNamespace(name, slot);
  const forward = await forwardTcp(ns.hostAddress, { host: new URL(TEST_PG_ADMIN_URL).hostname, port: 5432 });
  const forwarded = (url: string) => {
    const nodeUrl = new URL(url);
    nodeUrl.host = `${ns.hostAddress}:${forward.port}`;
    return nodeUrl.toString();
  };
  const served = ns.wrap(process.execPath, ['--import', 'tsx', ...script(ns, forwarded)]);
  const daemons = spawn(served.command, served.args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  const printed = JSON.parse(await lineOf(daemons, /^\{/, `the daemons of ${name}`)) as P;
  const settings = settingsOf(printed);
  const channelUrl = `http://${ns.address}:${AGENT_CHANNEL_PORT}`;
  let agent: ChildProcess | undefined;
  /** The environment the agent was last started with: the server's own configuration. */
  let serverEnv: Record<string, string> | undefined;
  const server: ServerNamespace = {
    ns,
    settings,
    channelUrl,
    databaseUrl: forwarded,
    get agent() {
      return agent;
    },
    async startAgent(databaseUrl, extra, env = {}) {
      const configFile = path.join(mkdtempSync(path.join(tmpdir(), `p247-${name}-config-`)), 'panel.json');
      writeFileSync(configFile, JSON.stringify(nested({ ...settings, 'agent.url': channelUrl, ...extra })));
      const { command, args } = ns.wrap(process.execPath, [AGENT]);
      serverEnv = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        PANEL_CONFIG_FILE: configFile,
        PANEL_DATABASE_URL: forwarded(databaseUrl),
        PANEL_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
        PANEL_LOG_LEVEL: 'warn',
        ...env,
      };
      const started = spawn(command, args, { cwd: REPO, env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      agent = started;
      await lineOf(started, /node agent: running/, `the agent of ${name}`);
      return started;
    },
    async stopAgent(signal = 'SIGTERM') {
      const running = agent;
      agent = undefined;
      await stopChild(running, signal);
    },
    panel(args) {
      if (!serverEnv) throw new Error(`${name}: start its agent first (the CLI takes its configuration)`);
      const { command, args: wrapped } = ns.wrap(process.execPath, [PANEL_CLI, ...args]);
      return new Promise((resolve) => {
        execFile(command, wrapped, { cwd: REPO, env: serverEnv }, (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    },
    async destroy() {
      await stopChild(agent);
      agent = undefined;
      await stopChild(daemons);
      await forward.close();
      await ns.destroy();
    },
  };
  return { server, printed };
}

/**
 * A web server: nginx and PHP-FPM at its own address and, given `ftp` (the panel's PostgreSQL and
 * the server's name), ProFTPD logging in the FTP accounts of the homes placed on it.
 */
export async function startWebServerNamespace(
  name: string,
  slot: number,
  ftp?: { databaseUrl: string; node: string },
): Promise<WebServerNamespace> {
  type Printed = Pick<WebServers, 'httpPort' | 'driverOptions' | 'dir'> & { ftpPort: number };
  let homes = '';
  const { server, printed } = await startServerNamespace<Printed>(
    name,
    slot,
    (ns, forwarded) => [
      'scripts/daemons/serve-web.ts',
      ns.address,
      ...(ftp ? [forwarded(ftp.databaseUrl), ftp.node] : []),
    ],
    (servers) => {
      // Its own templates, which a test may break as an operator's bad edit would.
      const templates = mkdtempSync(path.join(tmpdir(), `p247-${name}-templates-`));
      cpSync(path.join(REPO, 'deploy/nginx'), templates, { recursive: true });
      homes = path.join(servers.dir, 'homes');
      mkdirSync(homes, { recursive: true, mode: 0o755 });
      chmodSync(homes, 0o755);
      return { ...nginxPanelConfig(servers as unknown as WebServers, homes), 'web.templatesDir': templates };
    },
  );
  const { ns } = server;
  return Object.assign(server, {
    homes,
    ftpPort: printed.ftpPort,
    site: (host: string, pathname = '/') =>
      new Promise<{ status: number; body: string }>((resolve) => {
        const request = http.get(
          { host: ns.address, port: printed.httpPort, path: pathname, agent: false, headers: { host }, timeout: 3000 },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        // nginx's default server closes unknown hosts without an answer (444)
        request.on('error', () => resolve({ status: 0, body: '' }));
        request.on('timeout', () => request.destroy());
      }),
    page(domain: string, folder: string, text: string) {
      const file = path.join(homes, domain, folder, 'index.html');
      writeFileSync(file, text);
      chmodSync(file, 0o644);
    },
  });
}

/**
 * A mail server of the provider's: its Dovecot and Postfix read the panel's PostgreSQL (at
 * `databaseUrl`, reached from inside) as server `node`, so they serve only the mail placed on it.
 */
export async function startMailServerNamespace(
  name: string,
  slot: number,
  databaseUrl: string,
  node: string,
): Promise<MailServerNamespace> {
  type Printed = { imapPort: number; smtpPort: number; mailRoot: string; doveadmConfig: string };
  const { server, printed } = await startServerNamespace<Printed>(
    name,
    slot,
    (ns, forwarded) => ['scripts/daemons/serve-mail.ts', ns.address, forwarded(databaseUrl), node],
    (daemons) => ({ 'mail.root': daemons.mailRoot, 'mail.doveadmConfig': daemons.doveadmConfig }),
  );
  return Object.assign(server, {
    imapPort: printed.imapPort,
    smtpPort: printed.smtpPort,
    mailRoot: printed.mailRoot,
  });
}

/** A databases server: MariaDB (scripts/daemons/serve-databases.ts) at its own address. */
export interface DatabasesServerNamespace extends ServerNamespace {
  /** MariaDB's port at the server's address. */
  mariadbPort: number;
}

/**
 * A databases server of the provider's: its agent applies the databases of the services placed on
 * it to its own MariaDB, whose users may log in from the control plane's end of the link (as the
 * web servers' addresses are given in PANEL_DATABASES_LOCAL_HOSTS on a real one).
 */
export async function startDatabasesServerNamespace(name: string, slot: number): Promise<DatabasesServerNamespace> {
  type Printed = { adminUrl: string; port: number };
  const { server, printed } = await startServerNamespace<Printed>(
    name,
    slot,
    (ns) => ['scripts/daemons/serve-databases.ts', ns.address],
    (daemons) => ({ 'databases.driver': 'mariadb', 'databases.url': daemons.adminUrl, 'databases.port': daemons.port }),
  );
  Object.assign(server.settings, {
    'databases.host': server.ns.address,
    'databases.localHosts': ['localhost', '127.0.0.1', server.ns.hostAddress],
  });
  return Object.assign(server, { mariadbPort: printed.port });
}
