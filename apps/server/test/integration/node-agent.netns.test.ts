import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostingService } from '@panel247/contract/hosting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceChangeLog } from '../../src/jobs/service-change-log.repository.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { startWebServerNamespace, until, type WebServerNamespace } from '../support/server-namespace.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const isRoot = process.getuid?.() === 0;
const BEING_APPLIED = 'Hecho en el panel. El servidor aún no lo ha aplicado: se aplicará en cuanto pueda.';
const FAILING =
  'Hecho en el panel, pero el servidor aún no ha podido aplicarlo. Se volverá a intentar; puedes reintentarlo ahora.';

/**
 * The control plane and a node agent on two servers: the node is a network namespace with its
 * own address, running its own nginx and PHP-FPM and the agent's bundle (`apps/server/dist/
 * agent.js`); the API runs outside it (PANEL_AGENT=separate) and reaches nothing of the node but
 * the work log in PostgreSQL, which the node reaches through the host's end of its link. What a
 * customer does through the API is served at the node's address; the agent frozen, killed or
 * handed a broken template shows it to the customer and catches up.
 */
describe.skipIf(!isRoot && process.env.CI !== 'true')('a node agent in its own network namespace', () => {
  let server: WebServerNamespace;
  let database: TestDatabase;
  let t: TestApp;
  let shared: Record<string, unknown>;
  let apiHomes: string;
  const cookies = new Map<number, string>();
  const accounts: BuiltAccount[] = [];

  const startAgent = () => server.startAgent(database.url as string, shared);
  const stopAgent = (signal?: NodeJS.Signals) => server.stopAgent(signal);
  const site = (host: string, pathname = '/') => server.site(host, pathname);

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
  const page = (account: BuiltAccount, label: string) =>
    server.page(account.domainName, label, `${label} on the node\n`);

  beforeAll(async () => {
    server = await startWebServerNamespace('p247node', 21);
    shared = {
      'web.applyWaitSeconds': 5,
      'agent.mode': 'separate',
      // the node channel, at the node's own address: the API outside reaches the homes only through it
      'agent.url': server.channelUrl,
    };
    database = await createTestDatabase('postgres');
    // The API's own hosting root is another, empty folder: it must stay so.
    apiHomes = mkdtempSync(path.join(tmpdir(), 'p247-api-homes-'));
    t = await buildTestApp('postgres', {
      database,
      config: { ...server.settings, ...shared, 'hosting.root': apiHomes, databaseUrl: database.url },
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
    await t?.close();
    await server?.destroy();
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
    server.agent?.kill('SIGSTOP');
    try {
      const created = await createSite(id, 'frozen');
      expect(created.body.system.info).toEqual(['Subdominio creado', BEING_APPLIED]);
      expect(created.body.system.job).toMatchObject({ status: 'queued' });
      expect((await service(id)).applying).toMatchObject({ state: 'pending' });
    } finally {
      server.agent?.kill('SIGCONT');
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
    server.agent?.kill('SIGSTOP');
    const created = await createSite(id, 'killed');
    expect(created.body.system.job).toMatchObject({ status: 'queued' });
    // thawed and killed at once: it may have taken the job, or be in the middle of applying it
    server.agent?.kill('SIGCONT');
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
    const template = path.join(server.settings['web.templatesDir'] as string, 'parking.locations.template');
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
