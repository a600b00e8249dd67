import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostingService } from '@panel247/contract/hosting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeNamespace, type NodeNamespace } from '../../../../scripts/daemons/netns.ts';
import { forwardTcp } from '../../../../scripts/daemons/tcp-forward.ts';
import type { WebServers } from '../../../../scripts/daemons/web.ts';
import { serviceChangeLog } from '../../src/jobs/service-change-log.repository.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { nginxPanelConfig } from '../support/nginx-config.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, TEST_PG_ADMIN_URL, type TestDatabase } from '../support/test-database.ts';

const REPO = path.resolve(import.meta.dirname, '../../../..');
const AGENT = path.join(REPO, 'apps/server/dist/agent.js');
const isRoot = process.getuid?.() === 0;
/** The node channel's port, in the namespace's own port space. */
const AGENT_CHANNEL_PORT = 8247;
const BEING_APPLIED = 'Hecho en el panel. El servidor aún no lo ha aplicado: se aplicará en cuanto pueda.';
const FAILING =
  'Hecho en el panel, pero el servidor aún no ha podido aplicarlo. Se volverá a intentar; puedes reintentarlo ahora.';

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

function lines(child: ChildProcess, ready: RegExp, what: string): Promise<string> {
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

/**
 * The control plane and a node agent on two servers: the node is a network namespace with its
 * own address, running its own nginx and PHP-FPM and the agent's bundle (`apps/server/dist/
 * agent.js`); the API runs outside it (PANEL_AGENT=separate) and reaches nothing of the node but
 * the work log in PostgreSQL, which the node reaches through the host's end of its link. What a
 * customer does through the API is served at the node's address; the agent frozen, killed or
 * handed a broken template shows it to the customer and catches up.
 */
describe.skipIf(!isRoot && process.env.CI !== 'true')('a node agent in its own network namespace', () => {
  let ns: NodeNamespace;
  let forward: { port: number; close(): Promise<void> };
  let web: ChildProcess;
  let servers: Pick<WebServers, 'httpPort' | 'driverOptions' | 'dir'>;
  let agent: ChildProcess | undefined;
  let database: TestDatabase;
  let t: TestApp;
  let settings: Record<string, unknown>;
  let configFile: string;
  let homes: string;
  let apiHomes: string;
  const cookies = new Map<number, string>();
  const accounts: BuiltAccount[] = [];

  const startAgent = async () => {
    const nodeUrl = new URL(database.url as string);
    nodeUrl.host = `${ns.hostAddress}:${forward.port}`;
    const { command, args } = ns.wrap(process.execPath, [AGENT]);
    agent = spawn(command, args, {
      cwd: REPO,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        PANEL_CONFIG_FILE: configFile,
        PANEL_DATABASE_URL: nodeUrl.toString(),
        PANEL_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
        PANEL_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await lines(agent, /node agent: running/, 'the agent');
  };
  const stopAgent = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const running = agent;
    agent = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };

  /** A site's answer at the node's own address, as a browser of the site would ask. */
  const site = (host: string, pathname = '/') =>
    new Promise<{ status: number; body: string }>((resolve) => {
      const request = http.get(
        { host: ns.address, port: servers.httpPort, path: pathname, agent: false, headers: { host }, timeout: 3000 },
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
    });
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> => {
    const end = Date.now() + ms;
    let value = await read();
    while (!done(value)) {
      if (Date.now() > end) throw new Error(`not within ${ms} ms: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      value = await read();
    }
    return value;
  };

  const service = async (id: number) =>
    (await t.call<{ service: HostingService }>('GET', `service/${id}/`, {}, { cookie: cookies.get(id) as string })).body
      .data.service;
  /** A site made through the API, with a page of its own in its folder once the node made it. */
  const createSite = async (id: number, label: string) =>
    t.call(
      'POST',
      `service/${id}/subdomain/create/`,
      { subDomain: label, folder: label },
      { cookie: cookies.get(id) as string },
    );
  const page = (account: BuiltAccount, label: string) => {
    const folder = path.join(homes, account.domainName, label);
    writeFileSync(path.join(folder, 'index.html'), `${label} on the node\n`);
    chmodSync(path.join(folder, 'index.html'), 0o644);
  };

  beforeAll(async () => {
    if (!existsSync(AGENT))
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: REPO });
    ns = await createNodeNamespace('p247node', 21);
    forward = await forwardTcp(ns.hostAddress, { host: new URL(TEST_PG_ADMIN_URL).hostname, port: 5432 });
    const served = ns.wrap(process.execPath, ['--import', 'tsx', 'scripts/daemons/serve-web.ts', ns.address]);
    web = spawn(served.command, served.args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    servers = JSON.parse(await lines(web, /^\{"httpPort"/, 'nginx and PHP-FPM in the namespace'));
    // The node's templates: parking's is broken later, as an operator's bad edit would be.
    const templates = mkdtempSync(path.join(tmpdir(), 'p247-node-templates-'));
    cpSync(path.join(REPO, 'deploy/nginx'), templates, { recursive: true });
    homes = path.join(servers.dir, 'homes');
    mkdirSync(homes, { recursive: true, mode: 0o755 });
    chmodSync(homes, 0o755);
    settings = {
      ...nginxPanelConfig(servers as WebServers, homes),
      'web.templatesDir': templates,
      'web.applyWaitSeconds': 5,
      'agent.mode': 'separate',
      // the node channel, at the node's own address: the API outside reaches the homes only through it
      'agent.url': `http://${ns.address}:${AGENT_CHANNEL_PORT}`,
    };
    configFile = path.join(mkdtempSync(path.join(tmpdir(), 'p247-node-config-')), 'panel.json');
    writeFileSync(configFile, JSON.stringify(nested(settings)));
    database = await createTestDatabase('postgres');
    // The API's own hosting root is another, empty folder: it must stay so.
    apiHomes = mkdtempSync(path.join(tmpdir(), 'p247-api-homes-'));
    t = await buildTestApp('postgres', {
      database,
      config: { ...settings, 'hosting.root': apiHomes, databaseUrl: database.url },
    });
    for (const domainName of ['nodo-uno.test', 'nodo-dos.test']) {
      const account = await buildAccount(database.db, {
        domainName,
        resources: { [domainName]: { hasService: true } },
      });
      accounts.push(account);
      cookies.set(
        account.resources[domainName] as number,
        await t.login(account.domainName, account.username, account.password),
      );
    }
    await startAgent();
  }, 120_000);
  afterAll(async () => {
    await stopAgent();
    await t?.close();
    if (web && web.exitCode === null) {
      const exited = new Promise((resolve) => web.once('exit', resolve));
      web.kill('SIGTERM');
      await exited;
    }
    await forward?.close();
    await ns?.destroy();
  });

  const [one, two] = [0, 1];
  const idOf = (index: number) => accounts[index]?.resources[accounts[index]?.domainName as string] as number;

  it('serves at the node’s own address a site created through the API, when the call answers', async () => {
    const created = await createSite(idOf(one), 'blog');
    expect(created.body.system).toMatchObject({ valid: true, info: ['Subdominio creado'], job: null });
    page(accounts[one] as BuiltAccount, 'blog');
    const answer = await until(
      () => site(`blog.${accounts[one]?.domainName}`),
      (a) => a.status === 200,
      15_000,
    );
    expect(answer.body).toBe('blog on the node\n');
  });

  it('edits a site’s files on the node through the file manager: served there, nothing in the API’s folders', async () => {
    const id = idOf(one);
    const domain = accounts[one]?.domainName as string;
    const saved = await t.call(
      'POST',
      `service/${id}/files/save/`,
      { path: 'blog/hola.html', content: 'hola desde el gestor\n' },
      { cookie: cookies.get(id) as string },
    );
    expect(saved.body.system.errors).toEqual([]);
    expect((await site(`blog.${domain}`, '/hola.html')).body).toBe('hola desde el gestor\n');
    const listed = await t.call<{ entries: { name: string }[] }>(
      'GET',
      `service/${id}/files/list/`,
      { path: 'blog' },
      { cookie: cookies.get(id) as string },
    );
    expect(listed.body.data.entries.map((entry) => entry.name)).toContain('hola.html');
    expect((await service(id)).usage.spaceWeb.used).toBeGreaterThan(0);
    expect(readdirSync(apiHomes)).toEqual([]);
  });

  it('frozen (SIGSTOP), leaves the change pending for the customer; thawed, applies it', async () => {
    const id = idOf(one);
    agent?.kill('SIGSTOP');
    try {
      const created = await createSite(id, 'frozen');
      expect(created.body.system.info).toEqual(['Subdominio creado', BEING_APPLIED]);
      expect(created.body.system.job).toMatchObject({ status: 'queued' });
      expect((await service(id)).applying).toMatchObject({ state: 'pending' });
    } finally {
      agent?.kill('SIGCONT');
    }
    await until(
      () => service(id),
      (s) => s.applying === null,
    );
    page(accounts[one] as BuiltAccount, 'frozen');
    expect(
      (
        await until(
          () => site(`frozen.${accounts[one]?.domainName}`),
          (a) => a.status === 200,
          15_000,
        )
      ).body,
    ).toBe('frozen on the node\n');
  });

  it('killed while the change is on its way and started again, applies it exactly once', async () => {
    const id = idOf(one);
    agent?.kill('SIGSTOP');
    const created = await createSite(id, 'killed');
    expect(created.body.system.job).toMatchObject({ status: 'queued' });
    // thawed and killed at once: it may have taken the job, or be in the middle of applying it
    agent?.kill('SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 30));
    await stopAgent('SIGKILL');
    await startAgent();
    // a job its dead worker held is handed on once its heartbeat is missed (30 s)
    await until(
      () => service(id),
      (s) => s.applying === null,
      90_000,
    );
    const rows = await database.db
      .selectFrom('service_changes')
      .select(['state'])
      .where('service_id', '=', id)
      .where('state', '=', 'pending')
      .execute();
    expect(rows).toEqual([]);
    page(accounts[one] as BuiltAccount, 'killed');
    expect(
      (
        await until(
          () => site(`killed.${accounts[one]?.domainName}`),
          (a) => a.status === 200,
          15_000,
        )
      ).body,
    ).toBe('killed on the node\n');
  }, 120_000);

  it('a bad template on the node: the step fails with its reason, another service is not held, and it applies once mended', async () => {
    const parked = idOf(two);
    const template = path.join(settings['web.templatesDir'] as string, 'parking.locations.template');
    const good = `${template}.good`;
    copyFileSync(template, good);
    writeFileSync(template, 'location / { no_such_directive_here on; }\n');
    try {
      const parking = await t.call(
        'GET',
        `service/${parked}/parking/active/`,
        {},
        { cookie: cookies.get(parked) as string },
      );
      expect(parking.body.system.info).toEqual(['Parking activado', FAILING]);
      expect(parking.body.system.job).toMatchObject({ status: 'failed' });
      expect((await service(parked)).applying).toMatchObject({ state: 'failing', reason: 'refused' });
      // the node's words are for the provider only
      expect(JSON.stringify(parking.body)).not.toContain('no_such_directive');
      const waiting = await serviceChangeLog.backlogs(database.db);
      expect(waiting.find((item) => item.serviceId === parked)?.lastError).toContain('no_such_directive');
      // another service's change goes through meanwhile
      const other = await createSite(idOf(one), 'meanwhile');
      expect(other.body.system).toMatchObject({ info: ['Subdominio creado'], job: null });
    } finally {
      copyFileSync(good, template);
    }
    // the operator's fix: the template mended, the agent started again (templates are read once)
    await stopAgent();
    await startAgent();
    const retried = await t.call<{ service: HostingService }>(
      'POST',
      `service/${parked}/web/apply/`,
      {},
      {
        cookie: cookies.get(parked) as string,
      },
    );
    expect(retried.body.system.info).toEqual(['Todos los cambios del servicio están aplicados en el servidor web']);
    expect(retried.body.data.service.applying).toBeNull();
  });
});
