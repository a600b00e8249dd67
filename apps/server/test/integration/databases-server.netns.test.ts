import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { HostedDatabase } from '@panel247/contract/databases';
import type { HostingService } from '@panel247/contract/hosting';
import type { SignonForm } from '@panel247/contract/signon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from '../support/factories.ts';
import { addServer, dropServerRoles } from '../support/provider-servers.ts';
import { type DatabasesServerNamespace, startDatabasesServerNamespace, until } from '../support/server-namespace.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const execFileAsync = promisify(execFile);
const isRoot = process.getuid?.() === 0;
const PLACED = 'datos-uno.test';
/** Made before the databases server was added: its databases stay on the control plane's own machine. */
const LOCAL = 'datos-local.test';

/**
 * A databases server of the provider's in its own network namespace: MariaDB at its own address
 * and its agent (its own database role) applying the databases of the services placed on it. A
 * database made through the API is there, and its user logs in there with the mariadb client;
 * the phpMyAdmin hand-off goes to that server; nothing of it reaches the control plane's machine.
 */
describe.skipIf(!isRoot && process.env.CI !== 'true')('a databases server of its own', () => {
  let server: DatabasesServerNamespace;
  let database: TestDatabase;
  let t: TestApp;
  const ids = new Map<string, number>();
  const cookies = new Map<string, string>();
  const as = (domain: string) => ({ cookie: cookies.get(domain) as string });

  /** The mariadb client at the databases server's address, as a site on a web server logs in. */
  const login = (user: string, password: string, sql: string) =>
    execFileAsync('mariadb', [
      '--no-defaults',
      '-h',
      server.ns.address,
      '-P',
      String(server.mariadbPort),
      '-u',
      user,
      `-p${password}`,
      '--connect-timeout=5',
      '-N',
      '-e',
      sql,
    ]).then(
      ({ stdout }) => ({ ok: true, stdout }),
      (error: { stderr?: string }) => ({ ok: false, stdout: error.stderr ?? '' }),
    );
  const listed = async (domain: string) =>
    (await t.call<{ ddbb: HostedDatabase[] }>('GET', `service/${ids.get(domain)}/ddbb/list/`, {}, as(domain))).body.data
      .ddbb;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    t = await buildTestApp('postgres', {
      database,
      config: { databaseUrl: database.url, 'databases.phpmyadminKey': 'k'.repeat(40) },
    });
    const addAccount = async (domain: string) => {
      const account = await buildAccount(database.db, {
        domainName: domain,
        resources: { [domain]: { hasService: true } },
      });
      ids.set(domain, account.resources[domain] as number);
      cookies.set(domain, await t.login(domain, account.username, account.password));
    };
    await addAccount(LOCAL);
    server = await startDatabasesServerNamespace('p247db1', 27);
    const cliEnv = {
      PANEL_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'p247-databases-server-cli-')),
      PANEL_LOG_LEVEL: 'silent',
      PANEL_DATABASE_URL: database.url as string,
    };
    const added = await addServer(cliEnv, database.url as string, 'db1', {
      roles: 'databases',
      channelUrl: server.channelUrl,
      ipv4: server.ns.address,
    });
    await addAccount(PLACED);
    await server.startAgent(
      added.roleUrl,
      { 'web.applyWaitSeconds': 5 },
      { PANEL_NODE: 'db1', PANEL_NODE_KEY: added.key },
    );
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await server?.destroy();
    await dropServerRoles(['db1']);
  });

  it('places the new service’s databases on the databases server', async () => {
    const placed = await database.db.selectFrom('service_placements').select(['service_id', 'role', 'node']).execute();
    expect(placed).toEqual([{ service_id: ids.get(PLACED), role: 'databases', node: 'db1' }]);
  });

  it('makes a database through the API on the databases server: its user logs in there and uses it', async () => {
    const password = 'una clave de datos 1';
    const created = await t.call<{ ddbb: HostedDatabase }>(
      'POST',
      `service/${ids.get(PLACED)}/ddbb/create/`,
      { password },
      as(PLACED),
    );
    expect(created.body.system.errors).toEqual([]);
    const { bbdd, user } = created.body.data.ddbb;
    // applied by the server's agent, which may answer after the call
    const session = await until(
      () => login(user, password, `CREATE TABLE ${bbdd}.notas (texto TEXT); SELECT DATABASE()`),
      (answer) => answer.ok,
      30_000,
    );
    expect(session.ok).toBe(true);
    await login(user, password, `INSERT INTO ${bbdd}.notas VALUES ('hola desde el panel')`);
    expect((await login(user, password, `SELECT texto FROM ${bbdd}.notas`)).stdout.trim()).toBe('hola desde el panel');
    expect((await login(user, 'otra clave', 'SELECT 1')).ok).toBe(false);
    // its size is read from the server that holds it
    const size = await until(
      () => listed(PLACED),
      (list) => (list[0]?.size ?? 0) > 0,
      30_000,
    );
    expect(size[0]?.bbdd).toBe(bbdd);
    // and the service's overview counts it against the plan, read from that server too
    const overview = await t.call<{ service: HostingService }>('GET', `service/${ids.get(PLACED)}/`, {}, as(PLACED));
    expect(overview.body.data.service.usage.spaceBbdd.used).toBe(size[0]?.size);
  });

  it('sends the phpMyAdmin hand-off to the databases server’s host', async () => {
    const [first] = await listed(PLACED);
    const form = await t.call<SignonForm>(
      'POST',
      `service/${ids.get(PLACED)}/ddbb/${first?.id}/login/`,
      {},
      as(PLACED),
    );
    expect(form.body.system.errors).toEqual([]);
    expect(new URL(form.body.data.action).host).toBe('db1.example.net');
  });

  it('keeps a service’s databases made before the server on the control plane’s machine: not on the server', async () => {
    const created = await t.call<{ ddbb: HostedDatabase }>(
      'POST',
      `service/${ids.get(LOCAL)}/ddbb/create/`,
      { password: 'una clave local 1' },
      as(LOCAL),
    );
    expect(created.body.system.errors).toEqual([]);
    expect((await login(created.body.data.ddbb.user, 'una clave local 1', 'SELECT 1')).ok).toBe(false);
    // and the databases server's sync finds nothing to repair: what it has is what the panel places there
    const synced = await server.panel(['databases', 'sync', '--dry-run', '--json']);
    expect({ code: synced.code, stderr: synced.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(synced.stdout) as { drift?: unknown[]; databases?: unknown[] };
    expect(report.drift ?? report.databases).toEqual([]);
  });
});
