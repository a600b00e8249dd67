import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FtpAccount } from '@panel247/contract/ftp';
import type { HostingService } from '@panel247/contract/hosting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeView } from '../../src/modules/nodes/nodes.service.ts';
import { buildAccount } from '../support/factories.ts';
import { runPanel } from '../support/panel-cli.ts';
import { addServer, dropServerRoles, psql } from '../support/provider-servers.ts';
import { ftpUploadAt } from '../support/server-clients.ts';
import { startWebServerNamespace, until, type WebServerNamespace } from '../support/server-namespace.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const isRoot = process.getuid?.() === 0;
const BEING_APPLIED = 'Hecho en el panel. El servidor aún no lo ha aplicado: se aplicará en cuanto pueda.';
const DOMAINS = ['flota-uno.test', 'flota-dos.test', 'flota-tres.test'] as const;

/**
 * The control plane and two web servers of the provider's, each a network namespace with its own
 * address, nginx, PHP-FPM and agent (PANEL_NODE, PANEL_NODE_KEY). Services are placed on them by
 * the provider's pin or the policy; each one's changes, files and site are on its own server
 * alone, and a server that is frozen holds only its own services' changes.
 */
describe.skipIf(!isRoot && process.env.CI !== 'true')('services placed on two web servers of their own', () => {
  const servers = new Map<string, WebServerNamespace>();
  let database: TestDatabase;
  let t: TestApp;
  let cliEnv: Record<string, string>;
  let apiHomes: string;
  const ids = new Map<string, number>();
  const cookies = new Map<string, string>();

  const server = (name: string) => servers.get(name) as WebServerNamespace;
  let roleUrlOf: (name: string) => string = () => '';
  const keys = new Map<string, string>();
  const keyOf = (name: string) => keys.get(name) as string;
  const as = (domain: string) => ({ cookie: cookies.get(domain) as string });
  const createSite = (domain: string, label: string) =>
    t.call('POST', `service/${ids.get(domain)}/subdomain/create/`, { subDomain: label, folder: label }, as(domain));
  const service = async (domain: string) =>
    (await t.call<{ service: HostingService }>('GET', `service/${ids.get(domain)}/`, {}, as(domain))).body.data.service;
  /** The site served at its own server (once its page is there) and at no other. */
  const servedOnlyAt = async (name: string, domain: string, label: string) => {
    server(name).page(domain, label, `${label} of ${domain} on ${name}\n`);
    const answer = await until(
      () => server(name).site(`${label}.${domain}`),
      (a) => a.status === 200,
      15_000,
    );
    expect(answer.body).toBe(`${label} of ${domain} on ${name}\n`);
    for (const [other, elsewhere] of servers) {
      if (other === name) continue;
      expect((await elsewhere.site(`${label}.${domain}`)).status).toBe(0);
      expect(existsSync(path.join(elsewhere.homes, domain))).toBe(false);
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // each with ProFTPD reading the panel's views as its own server
    const [web1, web2] = await Promise.all([
      startWebServerNamespace('p247web1', 23, { databaseUrl: database.url as string, node: 'web1' }),
      startWebServerNamespace('p247web2', 24, { databaseUrl: database.url as string, node: 'web2' }),
    ]);
    servers.set('web1', web1).set('web2', web2);
    // The control plane's own hosting root: no home may ever appear in it.
    apiHomes = mkdtempSync(path.join(tmpdir(), 'p247-fleet-api-homes-'));
    t = await buildTestApp('postgres', {
      database,
      config: { 'web.applyWaitSeconds': 5, 'hosting.root': apiHomes, databaseUrl: database.url },
    });
    cliEnv = {
      PANEL_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'p247-fleet-cli-')),
      PANEL_LOG_LEVEL: 'silent',
      PANEL_DATABASE_URL: database.url as string,
      // the servers' channels answer the panel's token, made from its key
      PANEL_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
    };
    const roleUrls = new Map<string, string>();
    roleUrlOf = (name) => roleUrls.get(name) as string;
    for (const [name, one] of servers) {
      const added = await addServer(cliEnv, database.url as string, name, {
        roles: 'web',
        channelUrl: one.channelUrl,
        ipv4: one.ns.address,
      });
      keys.set(name, added.key);
      roleUrls.set(name, added.roleUrl);
    }
    // uno pinned to web1, dos to web2; tres by the policy (a tie between the two: by name, web1)
    const pins: Record<string, { web: string } | undefined> = {
      'flota-uno.test': { web: 'web1' },
      'flota-dos.test': { web: 'web2' },
      'flota-tres.test': undefined,
    };
    for (const domain of DOMAINS) {
      const placement = pins[domain];
      const account = await buildAccount(database.db, {
        domainName: domain,
        resources: { [domain]: { hasService: true, ...(placement ? { placement } : {}) } },
      });
      ids.set(domain, account.resources[domain] as number);
      cookies.set(domain, await t.login(domain, account.username, account.password));
      // its zone, made on first use with the records that point at its web server
      await t.call('GET', `service/${ids.get(domain)}/dns/list/`, {}, as(domain));
    }
    await Promise.all(
      [...servers].map(([name, one]) =>
        one.startAgent(
          roleUrls.get(name) as string,
          { 'web.applyWaitSeconds': 5 },
          { PANEL_NODE: name, PANEL_NODE_KEY: keys.get(name) as string },
        ),
      ),
    );
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([...servers.values()].map((one) => one.destroy()));
    await dropServerRoles(servers.keys());
  });

  it('runs each agent as its server’s own role, which cannot read a customer’s login or change a table', async () => {
    const asWeb1 = roleUrlOf('web1');
    await expect(psql(asWeb1, ['-c', 'SELECT count(*) FROM users'])).rejects.toThrow(/permission denied/);
    await expect(psql(asWeb1, ['-c', 'SELECT count(*) FROM sessions'])).rejects.toThrow(/permission denied/);
    await expect(psql(asWeb1, ['-c', 'ALTER TABLE resources ADD COLUMN x int'])).rejects.toThrow(/must be owner/);
    await expect(psql(asWeb1, ['-c', "UPDATE nodes SET roles = 'web,mail' WHERE name = 'web1'"])).rejects.toThrow(
      /permission denied/,
    );
    expect((await psql(asWeb1, ['-At', '-c', 'SELECT count(*) FROM resources'])).trim()).toBe('3');
  });

  it('places each service on its pinned server, or on the least used one by name', async () => {
    const placed = await database.db
      .selectFrom('service_placements as p')
      .innerJoin('resources as r', 'r.id', 'p.service_id')
      .select(['r.reference', 'p.node'])
      .where('p.role', '=', 'web')
      .orderBy('r.reference')
      .execute();
    expect(placed).toEqual([
      { reference: 'flota-dos.test', node: 'web2' },
      { reference: 'flota-tres.test', node: 'web1' },
      { reference: 'flota-uno.test', node: 'web1' },
    ]);
    const listed = JSON.parse((await runPanel(cliEnv, ['node', 'list', '--json'])).stdout) as { nodes: NodeView[] };
    expect(listed.nodes.map((node) => [node.name, node.services, node.up])).toEqual([
      ['web1', 2, true],
      ['web2', 1, true],
    ]);
  });

  it('serves each service’s new site at its own server’s address, and at no other', async () => {
    for (const domain of DOMAINS) {
      const created = await createSite(domain, 'blog');
      expect(created.body.system).toMatchObject({ valid: true, info: ['Subdominio creado'], job: null });
    }
    await servedOnlyAt('web1', 'flota-uno.test', 'blog');
    await servedOnlyAt('web2', 'flota-dos.test', 'blog');
    await servedOnlyAt('web1', 'flota-tres.test', 'blog');
  });

  it('edits a home through the agent of the server that holds it: served there, nothing anywhere else', async () => {
    const saved = await t.call(
      'POST',
      `service/${ids.get('flota-dos.test')}/files/save/`,
      { path: 'blog/hola.html', content: 'hola desde web2\n' },
      as('flota-dos.test'),
    );
    expect(saved.body.system.errors).toEqual([]);
    expect((await server('web2').site('blog.flota-dos.test', '/hola.html')).body).toBe('hola desde web2\n');
    expect((await service('flota-dos.test')).usage.spaceWeb.used).toBeGreaterThan(0);
    expect(readdirSync(server('web1').homes).sort()).toEqual(['flota-tres.test', 'flota-uno.test']);
    expect(readdirSync(apiHomes)).toEqual([]);
  });

  it('logs an FTP account in at the server holding its home, and there only: the upload lands there and is served', async () => {
    const domain = 'flota-dos.test';
    const created = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${ids.get(domain)}/ftp/create/`,
      { ftpUser: 'subidas', password: 'ftp clave 1', folder: 'blog' },
      as(domain),
    );
    expect(created.body.system.errors).toEqual([]);
    const login = created.body.data.ftp.user;
    const page = path.join(mkdtempSync(path.join(tmpdir(), 'p247-fleet-ftp-')), 'subida.html');
    writeFileSync(page, 'subida por FTP a web2\n');
    const upload = (name: string) => ftpUploadAt(server(name), login, 'ftp clave 1', page, 'subida.html');
    // the account reaches its server's ProFTPD through the log (it may answer before it is there)
    expect(
      await until(
        () => upload('web2'),
        (code) => code === 0,
        20_000,
      ),
    ).toBe(0);
    expect(readFileSync(path.join(server('web2').homes, domain, 'blog', 'subida.html'), 'utf8')).toBe(
      'subida por FTP a web2\n',
    );
    expect((await server('web2').site(`blog.${domain}`, '/subida.html')).body).toBe('subida por FTP a web2\n');
    expect(await upload('web1')).toBe(67);
  });

  it('a frozen server holds its own services’ changes only: pending there, applied in order when it thaws', async () => {
    const frozen = server('web2').agent;
    frozen?.kill('SIGSTOP');
    try {
      const first = await createSite('flota-dos.test', 'primera');
      expect(first.body.system.info).toEqual(['Subdominio creado', BEING_APPLIED]);
      const second = await createSite('flota-dos.test', 'segunda');
      expect(second.body.system.info).toEqual(['Subdominio creado', BEING_APPLIED]);
      expect((await service('flota-dos.test')).applying).toMatchObject({ state: 'pending' });
      // the other server is not held
      const meanwhile = await createSite('flota-uno.test', 'mientras');
      expect(meanwhile.body.system).toMatchObject({ info: ['Subdominio creado'], job: null });
      await servedOnlyAt('web1', 'flota-uno.test', 'mientras');
    } finally {
      frozen?.kill('SIGCONT');
    }
    await until(
      () => service('flota-dos.test'),
      (s) => s.applying === null,
    );
    const applied = await database.db
      .selectFrom('service_changes')
      .select(['id', 'state'])
      .where('service_id', '=', ids.get('flota-dos.test') as number)
      .orderBy('id')
      .execute();
    expect(applied.every((change) => change.state !== 'pending')).toBe(true);
    await servedOnlyAt('web2', 'flota-dos.test', 'primera');
    await servedOnlyAt('web2', 'flota-dos.test', 'segunda');
    // and each server's sync finds nothing to repair: what it serves is what the panel has, no more
    for (const [name, one] of servers) {
      const synced = await one.panel(['web', 'sync', '--dry-run', '--json']);
      expect({ name, stderr: synced.stderr }).toEqual({ name, stderr: expect.not.stringMatching(/error/i) });
      const report = JSON.parse(synced.stdout) as { driver: string; services: unknown[] };
      expect({ name, code: synced.code, driver: report.driver, drift: report.services }).toEqual({
        name,
        code: 0,
        driver: 'nginx',
        drift: [],
      });
    }
  });

  /** The address the zone's own A record names for the service, as a browser resolving it finds. */
  const addressOf = async (domain: string) =>
    (
      await database.db
        .selectFrom('dns_records')
        .select('value')
        .where('service_id', '=', ids.get(domain) as number)
        .where('zona', '=', '')
        .where('type', '=', 'A')
        .executeTakeFirstOrThrow()
    ).value;
  const serverAt = (address: string) => [...servers.values()].find((one) => one.ns.address === address);
  const webOf = async (domain: string) =>
    (
      await database.db
        .selectFrom('service_placements')
        .select('node')
        .where('service_id', '=', ids.get(domain) as number)
        .where('role', '=', 'web')
        .executeTakeFirst()
    )?.node;
  const move = (domain: string, to: string, wait = 30) =>
    runPanel(cliEnv, ['node', 'move', domain, '--to', to, '--keep-old', '1', '--wait', String(wait), '--json']);

  it('moves a site to the other server while a client keeps asking: no request fails, and back again', async () => {
    const domain = 'flota-tres.test';
    expect(await webOf(domain)).toBe('web1');
    // a client that resolves the site's name through its zone before every request, as browsers do
    const statuses: number[] = [];
    let asking = true;
    const client = (async () => {
      while (asking) {
        const answer = await (serverAt(await addressOf(domain)) as WebServerNamespace).site(`blog.${domain}`);
        statuses.push(answer.status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    for (const [to, from] of [
      ['web2', 'web1'],
      ['web1', 'web2'],
    ] as const) {
      const moved = await move(domain, to);
      expect({ code: moved.code, stderr: moved.stderr }).toEqual({ code: 0, stderr: '' });
      const report = JSON.parse(moved.stdout) as { from: string; to: string; cutoverMs: number; records: number };
      expect(report).toMatchObject({ from, to, records: 1 });
      expect(report.cutoverMs).toBeGreaterThan(0);
      expect(await webOf(domain)).toBe(to);
      expect(await addressOf(domain)).toBe(server(to).ns.address);
      expect((await server(to).site(`blog.${domain}`)).body).toBe(`blog of ${domain} on web1\n`);
      // the old copy goes once the records' time has passed (here 1 s): not served, no home left
      await until(
        () => server(from).site(`blog.${domain}`),
        (answer) => answer.status === 0,
        20_000,
      );
      await until(
        async () => readdirSync(path.join(server(from).homes, domain)),
        (left) => left.length === 0,
        20_000,
      );
    }
    asking = false;
    await client;
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it('rolls a move back when the new server’s agent dies in the middle: served where it was, nothing lost', async () => {
    const domain = 'flota-uno.test';
    // a home big enough for the copy to take a moment
    const big = path.join(server('web1').homes, domain, 'blog', 'grande.bin');
    writeFileSync(big, Buffer.alloc(64 * 1024 * 1024, 7));
    const moving = move(domain, 'web2', 10);
    await until(
      () => database.db.selectFrom('service_moves').select('state').execute(),
      (rows) => rows.length > 0,
      20_000,
    );
    await server('web2').stopAgent('SIGKILL');
    const moved = await moving;
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain('failed and was rolled back');
    expect(await webOf(domain)).toBe('web1');
    expect(await addressOf(domain)).toBe(server('web1').ns.address);
    expect(await database.db.selectFrom('service_moves').selectAll().execute()).toEqual([]);
    expect((await server('web1').site(`blog.${domain}`)).status).toBe(200);
    expect(statSync(big).size).toBe(64 * 1024 * 1024);
    // back, the new server releases what it had got
    await server('web2').startAgent(
      roleUrlOf('web2'),
      { 'web.applyWaitSeconds': 5 },
      {
        PANEL_NODE: 'web2',
        PANEL_NODE_KEY: keyOf('web2'),
      },
    );
    await until(
      async () =>
        existsSync(path.join(server('web2').homes, domain)) ? readdirSync(path.join(server('web2').homes, domain)) : [],
      (left) => left.length === 0,
      30_000,
    );
    expect((await server('web1').site(`blog.${domain}`)).status).toBe(200);
  });

  it('brings a lost web server’s sites up on the other from their backups: served there with their files', async () => {
    const domain = 'flota-dos.test';
    expect(await webOf(domain)).toBe('web2');
    server('web2').page(domain, 'blog', 'respaldado en web2\n');
    // the control plane backs the home up through web2's agent
    const backedUp = await runPanel(cliEnv, ['backup', 'run', domain, '--json']);
    expect({ code: backedUp.code, stderr: backedUp.stderr }).toEqual({ code: 0, stderr: '' });
    // web2 is lost: its agent gone for good, its disk with it
    await server('web2').stopAgent('SIGKILL');
    rmSync(path.join(server('web2').homes, domain), { recursive: true, force: true });
    const recovered = await runPanel(cliEnv, ['node', 'recover', 'web2', '--to', 'web1', '--wait', '30', '--json']);
    expect({ code: recovered.code, stderr: recovered.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(recovered.stdout)).toMatchObject({
      recovered: [{ domain, parts: ['web'], records: 1 }],
      failed: [],
    });
    expect(await webOf(domain)).toBe('web1');
    expect(await addressOf(domain)).toBe(server('web1').ns.address);
    // the backup's files served by web1's nginx, written there as the service's own user
    const answer = await until(
      () => server('web1').site(`blog.${domain}`),
      (found) => found.status === 200,
      15_000,
    );
    expect(answer.body).toBe('respaldado en web2\n');
    expect((await server('web1').site(`blog.${domain}`, '/subida.html')).body).toBe('subida por FTP a web2\n');
    expect(statSync(path.join(server('web1').homes, domain, 'blog', 'index.html')).uid).not.toBe(0);
  });
});
