import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostingService } from '@panel247/contract/hosting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeView } from '../../src/modules/nodes/nodes.service.ts';
import { buildAccount } from '../support/factories.ts';
import { runPanel } from '../support/panel-cli.ts';
import { addServer, dropServerRoles, psql } from '../support/provider-servers.ts';
import { startWebServerNamespace, until, type WebServerNamespace } from '../support/server-namespace.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
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
    const [web1, web2] = await Promise.all([
      startWebServerNamespace('p247web1', 23),
      startWebServerNamespace('p247web2', 24),
    ]);
    servers.set('web1', web1).set('web2', web2);
    database = await createTestDatabase('postgres');
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
    };
    const keys = new Map<string, string>();
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
});
