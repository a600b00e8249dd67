import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { StatsSiteData, StatsSitesData } from '@panel247/contract/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { startWebServers, type WebServers } from '../../../../scripts/daemons/web.ts';
import { buildAccount, resourceIdsAfter } from '../support/factories.ts';
import { nginxPanelConfig } from '../support/nginx-config.ts';
import { runPanel } from '../support/panel-cli.ts';
import { freeUidRange, nestedSettings, type Passwd, passwd, removeSystemUsers } from '../support/system-users.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const run = promisify(execFile);
const BASE_ID = 100_000 + Math.floor(Math.random() * 800_000);

/**
 * Site statistics against Debian's nginx and GoAccess with real system users: requests made with
 * curl to two sites of a service (and to a host of no site) show in each site's statistics after a
 * refresh (visits, pages, bandwidth, top pages, referrers, status codes, days and months); the
 * next refresh adds only what came since; a log rotated by the panel loses no line. GoAccess runs
 * as the service's user. Every account made is removed at the end.
 */
describe('site statistics from nginx’s logs, read by GoAccess', () => {
  let database: TestDatabase;
  let servers: WebServers;
  let t: TestApp;
  let cookie: string;
  let dataDir: string;
  let homes: string;
  let statsDir: string;
  const ACCOUNT = `stats${BASE_ID}.test`;
  const A = { domain: `a${BASE_ID}.test`, user: `p247s${BASE_ID + 1}`, id: BASE_ID + 1 };
  const home = (service: { domain: string }) => path.join(homes, service.domain);
  const api = <T>(route: string, params: Record<string, string> = {}) =>
    t.call<T>('POST', `service/${A.id}/${route}`, params, { cookie });

  /** curl through nginx, as a visitor would (the host in Host, never resolved). */
  const visit = async (host: string, urlPath: string, headers: string[] = []) => {
    const answer = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-H',
      `Host: ${host}`,
      ...headers.flatMap((header) => ['-H', header]),
      `http://127.0.0.1:${servers.httpPort}${urlPath}`,
    ]);
    return Number(answer.stdout);
  };
  /** nginx reloads in the background: asked until the page answers. */
  const served = async (host: string, urlPath: string) => {
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      if ((await visit(host, urlPath)) === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${host}${urlPath} is not served\n${servers.logs()}`);
  };
  /**
   * Asks for a refresh and waits for it to end (the service's refresh time moves past the clock's
   * second, set forward first), then reads the site.
   */
  const refreshed = async (host: string): Promise<StatsSiteData> => {
    t.clock.advance(10);
    const asked = Math.floor(t.clock.now() / 1000);
    const answer = await api('stats/refresh/');
    expect(answer.body.system.valid, answer.body.system.errors.join()).toBe(true);
    const until = Date.now() + 60_000;
    while ((await api<StatsSitesData>('stats/')).body.data.updatedAt < asked) {
      if (Date.now() > until) throw new Error(`no refresh of ${host} ended`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return (await api<StatsSiteData>('stats/site/', { host })).body.data;
  };

  beforeAll(async () => {
    if (process.getuid?.() !== 0) throw new Error('this test makes system users: run it as root');
    for (const binary of ['useradd', 'userdel', 'getent']) requireBinary(binary, 'passwd');
    requireBinary('goaccess', 'goaccess');
    requireBinary('curl', 'curl');
    const range = await freeUidRange();
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-statsdata-'));
    chmodSync(dataDir, 0o700);
    statsDir = path.join(dataDir, 'stats');
    database = await createTestDatabase('sqlite', { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    servers = await startWebServers();
    homes = path.join(servers.dir, 'homes');
    mkdirSync(homes, { recursive: true, mode: 0o755 });
    chmodSync(homes, 0o755);
    const settings = {
      ...nginxPanelConfig(servers, homes),
      dataDir,
      secretKey: TEST_SECRET_KEY.toString('hex'),
      logLevel: 'silent',
      'serviceUsers.driver': 'system',
      'serviceUsers.uidMin': range.min,
      'serviceUsers.uidMax': range.max,
      // small, so the second refresh rotates the log
      'stats.rotateMb': 1,
    };
    const configFile = path.join(dataDir, 'panel247.json');
    writeFileSync(configFile, JSON.stringify(nestedSettings(settings)));
    t = await buildTestApp('sqlite', { database, config: settings });
    const account = await buildAccount(database.db, { domainName: ACCOUNT, resources: {} });
    await resourceIdsAfter(database.db, account.accountId, BASE_ID);
    const made = await runPanel({ PANEL_CONFIG_FILE: configFile }, [
      'resource',
      'add',
      '--domain',
      ACCOUNT,
      '--reference',
      A.domain,
      '--service',
      '--grant-user',
      account.username,
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    cookie = await t.login(ACCOUNT, account.username, account.password);
    const blog = await api('subdomain/create/', { subDomain: 'blog', folder: 'blog', SSLActive: '0' });
    expect(blog.body.system.valid, blog.body.system.errors.join()).toBe(true);
    const a = (await passwd(A.user)) as Passwd;
    for (const [file, text] of [
      ['index.html', 'inicio'],
      ['contacto.html', 'contacto'],
      ['blog/index.html', 'blog'],
    ] as const) {
      writeFileSync(path.join(home(A), file), text);
      chownSync(path.join(home(A), file), a.uid, a.gid);
    }
    await served(A.domain, '/index.html');
    await served(`blog.${A.domain}`, '/index.html');
  });

  afterAll(async () => {
    await t?.close();
    await servers?.stop();
    await database?.destroy();
    await removeSystemUsers([A.user]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows each site’s requests after a refresh: visits, pages, bandwidth, top pages, referrers, status codes', async () => {
    // served() asked for each index once before: those count too
    for (let i = 0; i < 3; i++)
      expect(await visit(A.domain, '/index.html', ['User-Agent: Mozilla/5.0 Firefox/120.0'])).toBe(200);
    expect(await visit(`www.${A.domain}`, '/contacto.html', ['Referer: https://buscador.example/q?x=1'])).toBe(200);
    expect(await visit(A.domain, '/no-existe.html')).toBe(404);
    expect(await visit(`blog.${A.domain}`, '/index.html')).toBe(200);

    const main = await refreshed(A.domain);
    const summary = main.summary;
    expect(summary?.totals).toMatchObject({ hits: 6, notFound: 1 });
    expect(summary?.totals.pages).toBe(5);
    expect(summary?.totals.visitors).toBeGreaterThanOrEqual(1);
    expect(summary?.totals.bytes).toBeGreaterThan(0);
    expect(summary?.pages[0]).toMatchObject({ path: '/index.html', hits: 4 });
    expect(summary?.pages.map((page) => page.path)).toContain('/contacto.html');
    expect(summary?.referrers).toEqual([{ site: 'buscador.example', hits: 1 }]);
    expect(summary?.statuses).toEqual([
      { code: '200', hits: 5 },
      { code: '404', hits: 1 },
    ]);
    const today = new Date().toISOString().slice(0, 10);
    expect(summary?.days.map((day) => day.date)).toContain(today);
    expect(main.month).toBe(today.slice(0, 7));
    expect(main.months).toEqual([expect.objectContaining({ month: today.slice(0, 7), hits: 6 })]);
    // no GeoIP database on this server: no countries, rather than none found
    expect(summary?.countries).toBeNull();

    const blogAnswer = await api<StatsSiteData>('stats/site/', { host: `blog.${A.domain}` });
    expect(blogAnswer.body.data?.summary?.totals.hits, JSON.stringify(blogAnswer.body)).toBe(2);
    const sites = (await api<StatsSitesData>('stats/')).body.data;
    expect(sites.sites.map((site) => site.host)).toEqual([A.domain, `blog.${A.domain}`].sort());
    expect(sites.updatedAt).toBeGreaterThan(0);
  });

  it('adds only what came since on the next refresh; a rotated log loses no line', async () => {
    // past the 1 MiB rotation: long lines for the log (query strings; GoAccess reads lines of up
    // to 4 KiB), then a last request
    const padding = 'x'.repeat(3000);
    for (let i = 0; i < 400; i++) expect(await visit(A.domain, `/index.html?${padding}`)).toBe(200);
    const afterBig = await refreshed(A.domain);
    expect(afterBig.summary?.totals.hits).toBe(406);
    // read past 1 MiB: renamed to .1 and nginx reopened its log
    const logs = path.join(servers.driverOptions.logDir, String(A.id));
    expect(readdirSync(logs)).toContain('access.log.1');
    expect(await visit(A.domain, '/contacto.html')).toBe(200);
    const after = await refreshed(A.domain);
    expect(after.summary?.totals.hits).toBe(407);
  });

  it('keeps each site’s month in the panel’s own folder, and runs GoAccess as the service’s user', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const file = path.join(statsDir, String(A.id), A.domain, `${month}.log`);
    const info = statSync(file);
    expect([info.uid, info.mode & 0o777]).toEqual([0, 0o600]);
    expect(statSync(statsDir).mode & 0o777).toBe(0o700);
    // the service's user cannot read what the panel keeps
    const a = (await passwd(A.user)) as Passwd;
    const denied = await run('cat', [file], { uid: a.uid, gid: a.gid }).catch((error: { stderr: string }) => error);
    expect((denied as { stderr: string }).stderr).toMatch(/Permission denied/);
  });
});
