/// <reference path="../../apps/server/bench/autocannon.d.ts" />
/**
 * `npm run bench:scale`: the panel at a large reseller's size against the same panel with the demo
 * data, in one run. Two real servers (SQLite, embedded drivers, each its own temporary data folder):
 * the demo, and the demo plus `npm run panel -- demo scale` (10,000 resources; in scale00001.test
 * a 10,000-record zone, 10,000 mailboxes and 10,000 aliases, 1,000 sites, 1,000 FTP accounts).
 * It prints, as absolute values and as a ratio scale / demo:
 *
 * - LCP in Chromium (desktop settings: 1350×940, no throttling, a first visit with an empty cache,
 *   started once the machine is quiet again after the previous visit) of the dashboard, the domain list, a domain view, the DNS view and the mail view, median of 3;
 * - INP while typing a filter into the domain list and into the DNS list (event timing entries of
 *   16 ms and over; the worst interaction), median of 3;
 * - API p99 with 10 connections (autocannon) of permission/list, the DNS list's first page and the
 *   mail view's first page;
 * - the median time to create a mailbox, a DNS record and a site in the big service, against the
 *   same in demo.test on the same server.
 *
 * A benchmark reports: it exits 0 whatever the figures, 1 only when it cannot run.
 */
import { rmSync } from 'node:fs';
import autocannon from 'autocannon';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../support/browser';
import { type PanelServer, startServer } from '../support/server';
import { waitForQuietMachine } from './quiet-machine';
import { login, median } from './signed-in';

const ROUNDS = 3;
const CREATES = 15;
const API_SECONDS = 5;
const TYPED_DOMAIN = 'scale0999';
const TYPED_DNS = 'host0099';
const CSRF = { 'x-dd-request': '1' };

const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');
const ratio = (scale: number, demo: number) => (demo > 0 && Number.isFinite(scale) ? (scale / demo).toFixed(2) : 'n/a');

interface Target {
  name: string;
  server: PanelServer;
  cookie: string;
  /** The service (with its domain and mail) the views and the API calls open. */
  serviceId: number;
}

async function call<T>(target: Target, method: 'GET' | 'POST', path: string, form?: Record<string, string>) {
  const response = await fetch(`${target.server.url}/p247/${path}`, {
    method,
    headers: { ...CSRF, cookie: target.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: form ? new URLSearchParams(form) : undefined,
  });
  const body = (await response.json()) as { data: T; system: { valid: boolean; errors?: string[] } };
  return body;
}

async function serviceId(server: PanelServer, cookie: string, reference: string): Promise<number> {
  const target = { name: '', server, cookie, serviceId: 0 };
  const body = await call<{ permissions: { id: number; reference: string }[] }>(target, 'GET', 'permission/list/');
  const entry = body.data.permissions.find((p) => p.reference === reference);
  if (!entry) throw new Error(`${reference} is not in the permission list of ${server.url}`);
  return entry.id;
}

/** Collects LCP and event-timing entries from the first byte on, for `measure` to read. */
const OBSERVERS = `
  window.__lcp = 0;
  window.__events = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.interactionId) window.__events.push({ id: entry.interactionId, duration: entry.duration });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
`;

async function freshPage(browser: Browser, target: Target): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1350, height: 940 }, locale: 'es-ES' });
  const [name, value] = target.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: target.server.url }]);
  await context.addInitScript(OBSERVERS);
  return { context, page: await context.newPage() };
}

interface View {
  name: string;
  path: (id: number) => string;
  /** What shows once the view has its data. */
  ready?: string;
}

const VIEWS: View[] = [
  { name: 'dashboard', path: () => '/admin/' },
  { name: 'domain list', path: () => '/admin/domain/', ready: '[data-testid="resource-list"]' },
  { name: 'domain view', path: (id) => `/admin/${id}/domain/` },
  { name: 'DNS view', path: (id) => `/admin/${id}/service/dns/`, ready: '[data-testid="dns-edit"]' },
  { name: 'mail view', path: (id) => `/admin/${id}/mail/`, ready: '[data-testid="mail-filter"]' },
];

async function openView(page: Page, target: Target, view: View): Promise<void> {
  await waitForQuietMachine();
  await page.goto(`${target.server.url}${view.path(target.serviceId)}`, { waitUntil: 'networkidle' });
  if (view.ready) await page.locator(view.ready).first().waitFor({ timeout: 30_000 });
  // LCP may move to the list that the data brought: give it the frames to paint.
  await page.waitForTimeout(500);
}

async function lcp(browser: Browser, target: Target, view: View): Promise<number> {
  const { context, page } = await freshPage(browser, target);
  try {
    await openView(page, target, view);
    return await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
  } finally {
    await context.close();
  }
}

/** The worst interaction (all its event entries) while typing `text` into `filter`, 0 if none reached 16 ms. */
async function inp(browser: Browser, target: Target, view: View, filter: string, text: string): Promise<number> {
  const { context, page } = await freshPage(browser, target);
  try {
    await openView(page, target, view);
    await page.evaluate(() => {
      (window as unknown as { __events: unknown[] }).__events = [];
    });
    // focus() rather than a click: only the typing is measured.
    await page.locator(filter).focus();
    await page.keyboard.type(text, { delay: 150 });
    await page.waitForTimeout(1000);
    const events = await page.evaluate(
      () => (window as unknown as { __events: { id: number; duration: number }[] }).__events,
    );
    const byInteraction = new Map<number, number>();
    for (const event of events) byInteraction.set(event.id, Math.max(byInteraction.get(event.id) ?? 0, event.duration));
    return Math.max(0, ...byInteraction.values());
  } finally {
    await context.close();
  }
}

async function apiP99(target: Target, path: string): Promise<{ p99: number; rps: number; problems: number }> {
  const options = {
    url: `${target.server.url}/p247/${path}`,
    connections: 10,
    headers: { ...CSRF, cookie: target.cookie, 'accept-encoding': 'gzip, deflate, br' },
  };
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration: API_SECONDS, timeout: 10 });
  return { p99: result.latency.p99, rps: result.requests.average, problems: result.errors + result.non2xx };
}

/** The form that creates one `kind` named `name` in service `id`. */
function createCall(kind: 'mailbox' | 'dns' | 'site', id: number, name: string): [string, Record<string, string>] {
  if (kind === 'mailbox') return [`service/${id}/correo/create/`, { name, password: 'bench-password-1' }];
  if (kind === 'dns')
    return [`service/${id}/dns/create/`, { type: 'A', zona: name, value: '192.0.2.10', ttl: '0', priority: '20' }];
  return [
    `service/${id}/subdomain/create/`,
    { subDomain: name, folder: name, SSLActive: '0', cert: '', certkey: '', certchain: '' },
  ];
}

/**
 * Median milliseconds of CREATES creates in each service, each checked to have worked. The two
 * take turns, so a slow moment of a busy machine (a checkpoint, another process) falls on both
 * rather than on whichever ran then.
 */
async function createTimes(target: Target, ids: { small: number; big: number }, kind: 'mailbox' | 'dns' | 'site') {
  const times = { small: [] as number[], big: [] as number[] };
  for (let i = 0; i < CREATES; i += 1) {
    for (const which of ['small', 'big'] as const) {
      const [path, form] = createCall(kind, ids[which], `bench${which === 'small' ? 's' : 'b'}${i}`);
      const start = performance.now();
      const body = await call(target, 'POST', path, form);
      times[which].push(performance.now() - start);
      if (!body.system.valid) throw new Error(`${kind} create failed: ${JSON.stringify(body.system)}`);
    }
  }
  return { small: median(times.small), big: median(times.big) };
}

function table(title: string, header: string[], rows: string[][]): void {
  console.log(`\n${title}`);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  // Embedded drivers: `demo scale` writes rows for them only, and no daemon's speed is measured here.
  const env = { PANEL_DATABASES_DRIVER: 'embedded', PANEL_LOG_LEVEL: 'warn' };
  const servers: PanelServer[] = [];
  let browser: Browser | undefined;
  try {
    const demoServer = await startServer({ env });
    servers.push(demoServer);
    const scaleServer = await startServer({ env });
    servers.push(scaleServer);
    const started = performance.now();
    const made = (await scaleServer.cli(['demo', 'scale'])) as {
      parts: { part: string; created: number; seconds: number }[];
      seconds: number;
    };
    console.log(
      `Scale set built in ${((performance.now() - started) / 1000).toFixed(1)} s (the command's own work: ${made.seconds.toFixed(1)} s): ` +
        made.parts.map((part) => `${part.created} ${part.part}`).join(', '),
    );
    // The server caches a user's permissions for a few seconds; the CLI's change reaches it after that.
    await new Promise((resolve) => setTimeout(resolve, 6000));

    const demoCookie = await login(demoServer);
    const scaleCookie = await login(scaleServer);
    const demo: Target = {
      name: 'demo',
      server: demoServer,
      cookie: demoCookie,
      serviceId: await serviceId(demoServer, demoCookie, 'demo.test'),
    };
    const scale: Target = {
      name: 'scale',
      server: scaleServer,
      cookie: scaleCookie,
      serviceId: await serviceId(scaleServer, scaleCookie, 'scale00001.test'),
    };
    const sizes = await Promise.all(
      [demo, scale].map(async (target) => {
        const id = target.serviceId;
        const count = async (path: string) => (await call<{ total: number }>(target, 'GET', path)).data.total;
        const permissions = await call<{ permissions: unknown[] }>(target, 'GET', 'permission/list/');
        return `${target.name}: ${permissions.data.permissions.length} resources, ${await count(`service/${id}/dns/list/?page=1`)} records, ${await count(`service/${id}/mail/list/?page=1`)} addresses`;
      }),
    );
    console.log(`Measured on ${sizes.join('; ')}`);

    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
    const lcps = new Map<string, number[]>();
    const inps = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, value: number) =>
      map.set(key, [...(map.get(key) ?? []), value]);
    const domainList = VIEWS.find((view) => view.name === 'domain list') as View;
    const dnsView = VIEWS.find((view) => view.name === 'DNS view') as View;
    // Rounds alternate the two servers, so both see the same moments of a busy machine.
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const target of [demo, scale]) {
        for (const view of VIEWS) add(lcps, `${view.name}|${target.name}`, await lcp(browser, target, view));
        add(
          inps,
          `domain list|${target.name}`,
          await inp(browser, target, domainList, '[data-testid="list-filter"]', TYPED_DOMAIN),
        );
        add(
          inps,
          `DNS list|${target.name}`,
          await inp(browser, target, dnsView, '[data-testid="dns-filter"]', TYPED_DNS),
        );
      }
    }
    table(
      `Chromium, desktop settings: LCP, median of ${ROUNDS} first visits (aim ≤ 1000 ms and ≤ 1.5× the demo)`,
      ['view', 'demo', 'scale', 'ratio'],
      VIEWS.map((view) => {
        const d = median(lcps.get(`${view.name}|demo`) ?? []);
        const s = median(lcps.get(`${view.name}|scale`) ?? []);
        return [view.name, ms(d), ms(s), ratio(s, d)];
      }),
    );
    table(
      `INP while typing a filter ('${TYPED_DOMAIN}', '${TYPED_DNS}'; 0 = no event reached 16 ms), median of ${ROUNDS} (aim ≤ 100 ms)`,
      ['list', 'demo', 'scale', 'ratio'],
      ['domain list', 'DNS list'].map((name) => {
        const d = median(inps.get(`${name}|demo`) ?? []);
        const s = median(inps.get(`${name}|scale`) ?? []);
        return [name, ms(d), ms(s), d > 0 ? ratio(s, d) : '-'];
      }),
    );
    await browser.close();
    browser = undefined;

    const calls = [
      ['permission/list', () => 'permission/list/'],
      ['dns/list, first page', (id: number) => `service/${id}/dns/list/?page=1`],
      ['mail/list, first page', (id: number) => `service/${id}/mail/list/?page=1`],
    ] as const;
    const apiRows: string[][] = [];
    for (const [name, path] of calls) {
      const d = await apiP99(demo, path(demo.serviceId));
      const s = await apiP99(scale, path(scale.serviceId));
      const problems = d.problems + s.problems > 0 ? ` (${d.problems + s.problems} failed)` : '';
      apiRows.push([
        name,
        `${ms(d.p99)} · ${Math.round(d.rps)}/s`,
        `${ms(s.p99)} · ${Math.round(s.rps)}/s${problems}`,
        ratio(s.p99, d.p99),
      ]);
    }
    table(
      `API, 10 connections, ${API_SECONDS} s each, accept-encoding br: p99 · requests/s (aim p99 ≤ 50 ms and ≤ 2× the demo)`,
      ['call', 'demo', 'scale', 'ratio p99'],
      apiRows,
    );

    // Creates on the scale server: its big service against demo.test beside it, in turns.
    const ids = { small: await serviceId(scaleServer, scaleCookie, 'demo.test'), big: scale.serviceId };
    const createRows: string[][] = [];
    for (const kind of ['mailbox', 'dns', 'site'] as const) {
      const { small, big } = await createTimes(scale, ids, kind);
      createRows.push([kind === 'dns' ? 'DNS record' : kind, ms(small), ms(big), ratio(big, small)]);
    }
    table(
      `Creating in the big service (scale00001.test) against demo.test, same server, median of ${CREATES} (aim ≤ 1.2×)`,
      ['create', 'demo.test', 'big', 'ratio'],
      createRows,
    );
  } finally {
    await browser?.close();
    for (const server of servers) {
      // A restic the server started may still write into its data folder: a second try, then a warning.
      await server.stop().catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        try {
          rmSync(server.dataDir, { recursive: true, force: true });
        } catch (error) {
          console.warn(`bench:scale: could not remove ${server.dataDir}: ${(error as Error).message}`);
        }
      });
    }
  }
}

main().catch((error) => {
  console.error('bench:scale could not run:', error);
  process.exitCode = 1;
});
