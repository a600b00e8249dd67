import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ErrorLogLine, Subdomain } from '@panel247/contract/hosting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_LOG_LINES } from '../../src/drivers/web/error-log.ts';
import { AdminService, allKeys } from '../../src/modules/admin/admin.service.ts';
import { SITE_BUILDER_TOKEN_SECONDS, verifySiteBuilderToken } from '../../src/modules/hosting/site-builder-token.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const DOMAIN = 'herramientas.test';
const KEY = 'k'.repeat(40);

/** The service's error log and the site-builder sign-on (spec 2: service overview). */
describe.each(DATABASE_KINDS)('hosting error log and site builder on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let id: number;
  let otherId: number;
  let logDir: string;

  beforeAll(async () => {
    logDir = mkdtempSync(path.join(tmpdir(), 'p247-logs-'));
    t = await buildTestApp(kind, {
      config: {
        'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-tools-home-')),
        'web.configDir': mkdtempSync(path.join(tmpdir(), 'p247-tools-web-')),
        'web.logDir': logDir,
        'hosting.siteBuilderKey': KEY,
        'hosting.siteBuilderUrl': 'https://builder.example.test/start?brand=demo',
      },
    });
    account = await buildAccount(t.database.db, { domainName: DOMAIN, resources: { [DOMAIN]: { hasService: true } } });
    other = await buildAccount(t.database.db, {
      domainName: 'ajeno-tools.test',
      resources: { 'ajeno-tools.test': { hasService: true } },
    });
    id = account.resources[DOMAIN] as number;
    otherId = other.resources['ajeno-tools.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const logs = async (as = cookie) =>
    t.call<{ logs: ErrorLogLine[] }>('GET', `service/${id}/logerror/`, {}, { cookie: as });

  it('shows the tail of the service’s nginx and PHP error logs, interleaved by time', async () => {
    expect((await logs()).body.data.logs).toEqual([]);
    const folder = path.join(logDir, String(id));
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'error.log'),
      [
        '2026/11/24 10:00:00 [error] 7#7: *1 open() "/srv/x/favicon.ico" failed (2: No such file or directory)',
        '2026/11/24 10:00:02 [crit] 7#7: *3 connect() to unix:/run/php/panel247.sock failed',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(folder, 'php-error.log'),
      [
        '[24-Nov-2026 10:00:01 UTC] PHP Fatal error:  Uncaught Error: Call to undefined function boom() in /x/index.php:3',
        'Stack trace:',
        '#0 {main}',
        // A request can put anything into a log: control characters and markup stay text.
        '[24-Nov-2026 10:00:03 UTC] PHP Warning:  bad \u001b[31mred\u0007 <script>alert(1)</script>',
        '',
      ].join('\n'),
    );
    // Another service's log is never read.
    mkdirSync(path.join(logDir, String(otherId)), { recursive: true });
    writeFileSync(path.join(logDir, String(otherId), 'error.log'), '2026/11/24 10:00:00 [error] secret of another\n');

    const { body } = await logs();
    expect(body.data.logs.map((line) => `${line.source}: ${line.line}`)).toEqual([
      'nginx: 2026/11/24 10:00:00 [error] 7#7: *1 open() "/srv/x/favicon.ico" failed (2: No such file or directory)',
      'php: [24-Nov-2026 10:00:01 UTC] PHP Fatal error:  Uncaught Error: Call to undefined function boom() in /x/index.php:3',
      'php: Stack trace:',
      'php: #0 {main}',
      'nginx: 2026/11/24 10:00:02 [crit] 7#7: *3 connect() to unix:/run/php/panel247.sock failed',
      'php: [24-Nov-2026 10:00:03 UTC] PHP Warning:  bad \uFFFD[31mred\uFFFD <script>alert(1)</script>',
    ]);
    expect(JSON.stringify(body)).not.toContain('secret of another');
  });

  it('reads only the end of a big log: the last lines, whole', async () => {
    const file = path.join(logDir, String(id), 'error.log');
    for (let batch = 0; batch < 40; batch += 1) {
      const lines = Array.from(
        { length: 100 },
        (_, index) => `2026/11/24 11:00:00 [error] line ${batch * 100 + index} ${'x'.repeat(80)}`,
      );
      appendFileSync(file, `${lines.join('\n')}\n`);
    }
    const { body } = await logs();
    expect(body.data.logs).toHaveLength(ERROR_LOG_LINES);
    expect(body.data.logs.at(-1)?.line).toContain('line 3999 ');
    // The read starts mid-line; that piece is dropped, so every line shown is whole.
    expect(body.data.logs.every((line) => line.line.startsWith('2026/11/24'))).toBe(true);
  });

  it('signs the site builder’s link for the chosen site and remembers the choice', async () => {
    const site = (
      await t.call<{ subdomain: Subdomain }>(
        'POST',
        `service/${id}/subdomain/create/`,
        { subDomain: 'tienda', folder: 'shop', SSLActive: '0' },
        { cookie },
      )
    ).body.data.subdomain;
    expect(site.subdominio).toBe('tienda');
    const before = await t.call<{ selected: string | null }>('GET', `service/${id}/webconstructor/`, {}, { cookie });
    expect(before.body.data.selected).toBeNull();

    const login = await t.call<{ url: string }>(
      'POST',
      `service/${id}/webcontructorlogin/`,
      { subdomain: 'tienda', language: 'en' },
      { cookie },
    );
    const url = new URL(login.body.data.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://builder.example.test/start');
    expect(url.searchParams.get('brand')).toBe('demo');
    const token = url.searchParams.get('token') as string;
    const now = Math.floor(t.clock.now() / 1000);
    expect(verifySiteBuilderToken(token, KEY, now)).toMatchObject({
      v: 1,
      service: id,
      host: `tienda.${DOMAIN}`,
      folder: 'shop',
      lang: 'en',
      exp: now + SITE_BUILDER_TOKEN_SECONDS,
    });
    // Another key, a changed payload or an expired token are worth nothing.
    expect(verifySiteBuilderToken(token, 'z'.repeat(40), now)).toBeNull();
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload as string, 'base64url').toString()), service: otherId }),
    ).toString('base64url');
    expect(verifySiteBuilderToken(`${forged}.${signature}`, KEY, now)).toBeNull();
    expect(verifySiteBuilderToken(token, KEY, now + SITE_BUILDER_TOKEN_SECONDS + 1)).toBeNull();

    const selected = await t.call<{ selected: string | null }>('GET', `service/${id}/webconstructor/`, {}, { cookie });
    expect(selected.body.data.selected).toBe('tienda');
    const root = await t.call<{ url: string }>(
      'POST',
      `service/${id}/webcontructorlogin/`,
      { subdomain: '*' },
      { cookie },
    );
    const rootToken = new URL(root.body.data.url).searchParams.get('token') as string;
    expect(verifySiteBuilderToken(rootToken, KEY, now)).toMatchObject({ host: DOMAIN, folder: '' });
    expect((await t.call('GET', `service/${id}/webconstructor/`, {}, { cookie })).body.data).toEqual({ selected: '*' });
    // Two links are never the same token.
    const again = await t.call<{ url: string }>(
      'POST',
      `service/${id}/webcontructorlogin/`,
      { subdomain: '*' },
      { cookie },
    );
    expect(again.body.data.url).not.toBe(root.body.data.url);
  });

  it('refuses a site the service does not have, and hostile input, with a field error', async () => {
    for (const subdomain of ['nope', 'tienda\r\nx', '../x', 'x'.repeat(191)]) {
      const { body } = await t.call('POST', `service/${id}/webcontructorlogin/`, { subdomain }, { cookie });
      expect(body.system.inputs, subdomain).toEqual(['subdomain']);
    }
    expect((await t.call('GET', `service/${id}/webconstructor/`, {}, { cookie })).body.data).toEqual({ selected: '*' });
  });

  it('sends a brand with its own builder host there', async () => {
    const admin = new AdminService(t.database.db, new LocalEventBus(), () => Math.floor(Date.now() / 1000));
    await admin.ensureBrand({
      slug: 'builder-brand',
      company: 'Builder Hosting',
      builderHost: 'crea.example.test',
    });
    const branded = await buildAccount(t.database.db, {
      brandSlug: 'builder-brand',
      domainName: 'marca.test',
      resources: { 'marca.test': { hasService: true } },
    });
    const brandedCookie = await t.login(branded.domainName, branded.username, branded.password);
    const { body } = await t.call<{ url: string }>(
      'POST',
      `service/${branded.resources['marca.test']}/webcontructorlogin/`,
      { subdomain: '*' },
      { cookie: brandedCookie },
    );
    expect(body.data.url).toMatch(/^https:\/\/crea\.example\.test\/\?token=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('follows the service permission: read sees the log and the choice, write opens the builder', async () => {
    const reader = await buildUser(t.database.db, account, 'tools-reader', {
      [DOMAIN]: { ...allKeys('disabled'), service: 'read' },
    });
    const readerCookie = await t.login(account.domainName, reader.username, reader.password);
    expect((await logs(readerCookie)).response.statusCode).toBe(200);
    expect(
      (await t.call('GET', `service/${id}/webconstructor/`, {}, { cookie: readerCookie })).response.statusCode,
    ).toBe(200);
    const refused = await t.call(
      'POST',
      `service/${id}/webcontructorlogin/`,
      { subdomain: '*' },
      { cookie: readerCookie },
    );
    expect(refused.response.statusCode).toBe(403);

    const blind = await buildUser(t.database.db, account, 'tools-blind', {
      [DOMAIN]: { ...allKeys('disabled'), service_ftp: 'read' },
    });
    const blindCookie = await t.login(account.domainName, blind.username, blind.password);
    for (const [method, url] of [
      ['GET', `service/${id}/logerror/`],
      ['GET', `service/${id}/webconstructor/`],
      ['POST', `service/${id}/webcontructorlogin/`],
    ] as const) {
      expect((await t.call(method, url, { subdomain: '*' }, { cookie: blindCookie })).response.statusCode, url).toBe(
        404,
      );
      expect(
        (await t.call(method, url.replace(String(id), String(otherId)), { subdomain: '*' }, { cookie })).response
          .statusCode,
        url,
      ).toBe(404);
    }
  });
});

describe.each(DATABASE_KINDS)('site builder without a key on %s', (kind) => {
  it('says the builder is not set up, and remembers nothing', async () => {
    const t = await buildTestApp(kind, {
      config: {
        'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-nokey-')),
        'web.configDir': mkdtempSync(path.join(tmpdir(), 'p247-nokey-web-')),
      },
    });
    try {
      const account = await buildAccount(t.database.db, {
        domainName: 'sinclave.test',
        resources: { 'sinclave.test': { hasService: true } },
      });
      const cookie = await t.login(account.domainName, account.username, account.password);
      const id = account.resources['sinclave.test'];
      const { response, body } = await t.call(
        'POST',
        `service/${id}/webcontructorlogin/`,
        { subdomain: '*' },
        { cookie },
      );
      expect(response.statusCode).toBe(409);
      expect(body.system.errors).toEqual(['El constructor de webs no está configurado en este servidor']);
      expect((await t.call('GET', `service/${id}/webconstructor/`, {}, { cookie })).body.data).toEqual({
        selected: null,
      });
    } finally {
      await t.close();
    }
  });
});
