import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { HostedDatabase } from '@panel247/contract/databases';
import { DEFAULT_RECORD_TEMPLATES } from '@panel247/contract/dns-default-records';
import type { HostingService } from '@panel247/contract/hosting';
import type { SignonForm } from '@panel247/contract/signon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from '../support/factories.ts';
import { runPanel } from '../support/panel-cli.ts';
import { dropServerRoles, joinServer } from '../support/provider-servers.ts';
import { type DatabasesServerNamespace, startDatabasesServerNamespace, until } from '../support/server-namespace.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
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
 * A second databases server takes a service's databases by a move, their users locked on the old
 * one meanwhile, and a move that fails leaves them as they were.
 */
describe.skipIf(!isRoot && process.env.CI !== 'true')('a databases server of its own', () => {
  let server: DatabasesServerNamespace;
  /** The second databases server, which the databases move to. */
  let other: DatabasesServerNamespace;
  let cliEnv: Record<string, string>;
  let database: TestDatabase;
  let t: TestApp;
  const ids = new Map<string, number>();
  const cookies = new Map<string, string>();
  const as = (domain: string) => ({ cookie: cookies.get(domain) as string });

  /** The mariadb client at the databases server's address, as a site on a web server logs in. */
  const login = (user: string, password: string, sql: string, at = server) =>
    execFileAsync('mariadb', [
      '--no-defaults',
      '-h',
      at.ns.address,
      '-P',
      String(at.mariadbPort),
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
      config: {
        databaseUrl: database.url,
        'databases.phpmyadminKey': 'k'.repeat(40),
        // the provider's name that follows a service's databases server (what applications are given)
        'dns.defaultRecords': [...DEFAULT_RECORD_TEMPLATES, { zona: 'db', type: 'CNAME', value: '{databases_host}' }],
      },
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
    [server, other] = await Promise.all([
      startDatabasesServerNamespace('p247db1', 27),
      startDatabasesServerNamespace('p247db2', 29),
    ]);
    cliEnv = {
      PANEL_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'p247-databases-server-cli-')),
      PANEL_LOG_LEVEL: 'silent',
      PANEL_DATABASE_URL: database.url as string,
      // the servers' channels answer the panel's token, made from its key
      PANEL_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
    };
    await joinServer(cliEnv, database.url as string, 'db1', server, 'databases');
    await addAccount(PLACED);
    // added after the service was placed: it holds nothing until the databases are moved to it
    await joinServer(cliEnv, database.url as string, 'db2', other, 'databases');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await server?.destroy();
    await other?.destroy();
    await dropServerRoles(['db1', 'db2']);
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

  const databasesName = async () =>
    (
      await t.call<{ dnss: { zona: string; type: string; value: string }[] }>(
        'GET',
        `service/${ids.get(PLACED)}/dns/list/`,
        {},
        as(PLACED),
      )
    ).body.data.dnss.find((record) => record.zona === 'db')?.value;
  const moveDatabases = (to: string) =>
    runPanel(cliEnv, [
      'node',
      'move',
      PLACED,
      '--to',
      to,
      '--part',
      'databases',
      '--keep-old',
      '1',
      '--wait',
      '30',
      '--json',
    ]);
  const password = 'una clave de datos 1';
  /** What a server's `databases sync --dry-run` finds wrong. */
  const driftAt = async (one: DatabasesServerNamespace) => {
    const synced = await one.panel(['databases', 'sync', '--dry-run', '--json']);
    expect({ code: synced.code, stderr: synced.stderr }).toEqual({ code: 0, stderr: '' });
    const found = JSON.parse(synced.stdout) as { drift?: unknown[]; databases?: unknown[] };
    return found.drift ?? found.databases ?? [];
  };

  it('moves the databases to another databases server: rows and logins there, the name switched, the old copy gone', async () => {
    expect(await databasesName()).toBe('db1.example.net');
    const [first] = await listed(PLACED);
    const { bbdd, user } = first as HostedDatabase;
    const moved = await moveDatabases('db2');
    expect({ code: moved.code, stderr: moved.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(moved.stdout) as { part: string; from: string; to: string; cutoverMs: number };
    expect(report).toMatchObject({ part: 'databases', from: 'db1', to: 'db2', records: 1 });
    expect(report.cutoverMs).toBeGreaterThan(0);
    // the same user, password and rows at the new server; the name applications use leads there
    expect((await login(user, password, `SELECT texto FROM ${bbdd}.notas`, other)).stdout.trim()).toBe(
      'hola desde el panel',
    );
    expect(await databasesName()).toBe('db2.example.net');
    const [now] = await listed(PLACED);
    const form = await t.call<SignonForm>('POST', `service/${ids.get(PLACED)}/ddbb/${now?.id}/login/`, {}, as(PLACED));
    expect(new URL(form.body.data.action).host).toBe('db2.example.net');
    // locked at the old server from the cut-over, and gone from it once the records' time has
    // passed (here 1 s): each server's sync looks at the databases it holds, nothing to repair on
    // either, nor an old copy left behind (an `extra`)
    expect((await login(user, password, 'SELECT 1')).stdout).toMatch(/locked|denied/);
    for (const [name, one] of [
      ['db1', server],
      ['db2', other],
    ] as const) {
      const drift = await until(
        () => driftAt(one),
        (found) => found.length === 0,
        30_000,
      );
      expect({ name, drift }).toEqual({ name, drift: [] });
    }
  });

  it('rolls a databases move back when a copy fails: the users unlocked where they were, nothing at the other server', async () => {
    const [first] = await listed(PLACED);
    const { bbdd, user } = first as HostedDatabase;
    // a second database, which its own user drops behind the panel's back: its dump fails mid-move
    const second = await t.call<{ ddbb: HostedDatabase }>(
      'POST',
      `service/${ids.get(PLACED)}/ddbb/create/`,
      { password: 'otra clave de datos 2' },
      as(PLACED),
    );
    expect(second.body.system.errors).toEqual([]);
    const dropped = second.body.data.ddbb;
    await until(
      () => login(dropped.user, 'otra clave de datos 2', `DROP DATABASE ${dropped.bbdd}`, other),
      (answer) => answer.ok,
      30_000,
    );
    const moved = await moveDatabases('db1');
    expect(moved.code).not.toBe(0);
    expect(moved.stderr).toMatch(/rolled back/);
    // still served by db2, its user logging in again (locked at the cut-over) with its rows
    const placed = await database.db
      .selectFrom('service_placements')
      .select('node')
      .where('service_id', '=', ids.get(PLACED) as number)
      .where('role', '=', 'databases')
      .executeTakeFirst();
    expect(placed?.node).toBe('db2');
    const back = await until(
      () => login(user, password, `SELECT texto FROM ${bbdd}.notas`, other),
      (answer) => answer.ok,
      30_000,
    );
    expect(back.stdout.trim()).toBe('hola desde el panel');
    expect(await databasesName()).toBe('db2.example.net');
    // what db1 got meanwhile is released: nothing of it left there
    const drift = await until(
      () => driftAt(server),
      (found) => found.length === 0,
      30_000,
    );
    expect(drift).toEqual([]);
    expect((await login(user, password, 'SELECT 1')).ok).toBe(false);
  });

  it('brings a lost databases server’s databases up on the other from their backups: the same logins and rows there', async () => {
    const rows = await listed(PLACED);
    const first = rows[0] as HostedDatabase;
    // the database its user dropped in the test before is made again by that user, empty
    for (const row of rows.slice(1))
      await login(row.user, 'otra clave de datos 2', `CREATE DATABASE ${row.bbdd}`, other);
    const backedUp = await runPanel(cliEnv, ['backup', 'run', PLACED, '--json']);
    expect({ code: backedUp.code, stderr: backedUp.stderr }).toEqual({ code: 0, stderr: '' });
    // db2 is lost: its agent gone for good
    await other.stopAgent('SIGKILL');
    const recovered = await runPanel(cliEnv, ['node', 'recover', 'db2', '--to', 'db1', '--wait', '30', '--json']);
    expect({ code: recovered.code, stderr: recovered.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(recovered.stdout) as { recovered: unknown[]; failed: unknown[] };
    expect(report).toMatchObject({ recovered: [{ domain: PLACED, parts: ['databases'], records: 1 }], failed: [] });
    // the rows of the backup, logged into with the same user and password at db1; the name switched
    expect((await login(first.user, password, `SELECT texto FROM ${first.bbdd}.notas`)).stdout.trim()).toBe(
      'hola desde el panel',
    );
    expect(await databasesName()).toBe('db1.example.net');
    expect(await driftAt(server)).toEqual([]);
    const nodes = JSON.parse((await runPanel(cliEnv, ['node', 'list', '--json'])).stdout) as {
      nodes: { name: string; state: string }[];
    };
    expect(nodes.nodes.find((node) => node.name === 'db2')?.state).toBe('draining');
  });
});
