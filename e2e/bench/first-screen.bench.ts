/**
 * `npm run bench:first-screen`: how long a person waits for a view's first rows, against a static
 * HTML page holding the same rows, served by the same server in the same run.
 *
 * One real server (SQLite, embedded drivers, the demo data) serves a copy of the built web app
 * with one static page per view beside it (`/bench-static/<view>.html`: the rows the view showed,
 * as a plain table, written after a first visit). In Chromium (desktop size, no throttling), for
 * the dashboard's cards and the first row of the domain list, the mail list, the DNS records and
 * the FTP accounts it measures, median of ROUNDS:
 *
 * - warm: the same browser context visits the view again (every asset in its cache);
 * - cold: a new context (nothing cached) visits it;
 *
 * each as a returning browser, whose view cookie lets the server draw the page's first screen
 * (apps/server/src/http/server-draw.ts), and as a browser without it, whose page the app draws
 * (the panel before the server drew pages, measured in the same run). The server has drawn each
 * view a few times before it is timed, as a running server has.
 *
 * "First row" is when the row's text was first on screen, as Chromium's Element Timing reports
 * it (row-paint.ts): a MutationObserver set before the page's first byte marks the row's text
 * when it enters the document, and the frame that draws it gives the time.
 * The static page is timed the same way. The ratio panel / static is the figure; the mail view's
 * requests (start and end, from navigation) are printed as its waterfall.
 *
 * A benchmark reports: it exits 0 whatever the figures, 1 only when it cannot run.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VIEW_COOKIE } from '@panel247/contract/constants';
import { type Browser, chromium, type Page } from 'playwright-core';
import { escapeHtml } from '../../apps/server/src/http/index-page';
import { CHROMIUM_PATH } from '../support/browser';
import { type PanelServer, REPO_ROOT, startServer } from '../support/server';
import { waitForQuietMachine } from './quiet-machine';
import { ROW_PAINT_OBSERVER } from './row-paint';
import { demoServiceId, drawnBefore, login, median, VIEW } from './signed-in';

const ROUNDS = 5;

interface View {
  name: string;
  path: (id: number) => string;
  /** The first row (or card) of the view, once its data is on screen. */
  first: string;
  /** The rows the static page copies. */
  rows: string;
}

const VIEWS: View[] = [
  { name: 'dashboard', path: () => '/admin/', first: '[data-testid="user-card"]', rows: '[data-testid$="-card"]' },
  {
    name: 'domain list',
    path: () => '/admin/domain/',
    first: '[data-testid="resource-list"] tbody tr',
    rows: '[data-testid="resource-list"] tbody tr',
  },
  {
    name: 'mail list',
    path: (id) => `/admin/${id}/mail/`,
    first: '[data-testid="mail-list"] tbody tr',
    rows: '[data-testid="mail-list"] tbody tr',
  },
  {
    name: 'DNS records',
    path: (id) => `/admin/${id}/service/dns/`,
    first: '[data-testid="dns-list"] tbody tr',
    rows: '[data-testid="dns-list"] tbody tr',
  },
  {
    name: 'FTP accounts',
    path: (id) => `/admin/${id}/service/ftp/`,
    first: '[data-testid="ftp-list"] tbody tr',
    rows: '[data-testid="ftp-list"] tbody tr',
  },
];

/** Notes when the first row enters the document and when it is painted (row-paint.ts). */
const FIRST_ROW_OBSERVER = (selector: string) => `
  window.__firstRow = { inserted: 0, painted: 0 };
  ${ROW_PAINT_OBSERVER(selector, 'window.__firstRow')}
`;

const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');
const ratio = (panel: number, page: number) => (page > 0 && Number.isFinite(panel) ? (panel / page).toFixed(1) : 'n/a');

/** The time to the first row of `url` in `page`, which the observer for `selector` watches. */
async function firstRow(page: Page, url: string, selector: string): Promise<number> {
  await page.goto(url, { waitUntil: 'load' });
  await page.locator(selector).first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => (window as unknown as { __firstRow: { painted: number } }).__firstRow.painted > 0);
  return page.evaluate(() => (window as unknown as { __firstRow: { painted: number } }).__firstRow.painted);
}

class Session {
  constructor(
    private readonly browser: Browser,
    private readonly server: PanelServer,
    private readonly cookie: string,
  ) {}

  /** A context signed in; `drawn`: with the view cookie a returning browser has (written at its last boot). */
  async context(selector: string, drawn = false) {
    const context = await this.browser.newContext({
      viewport: { width: 1350, height: 940 },
      locale: 'es-ES',
      timezoneId: 'UTC',
    });
    const [name, value] = this.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: this.server.url }]);
    if (drawn) await context.addCookies([{ name: VIEW_COOKIE, value: VIEW, url: this.server.url }]);
    await context.addInitScript(FIRST_ROW_OBSERVER(selector));
    return context;
  }

  /** Cold: a new context; warm: the same context's second visit. */
  async times(url: string, selector: string, drawn = false): Promise<{ cold: number; warm: number }> {
    const context = await this.context(selector, drawn);
    try {
      const page = await context.newPage();
      await waitForQuietMachine();
      const cold = await firstRow(page, url, selector);
      await page.goto('about:blank');
      // the app wrote the view cookie at its boot: without it, the warm visit is the app's too
      if (!drawn) await context.clearCookies({ name: VIEW_COOKIE });
      await waitForQuietMachine();
      const warm = await firstRow(page, url, selector);
      return { cold, warm };
    } finally {
      await context.close();
    }
  }

  /** The view's rows as a plain page, and the requests of a warm visit to the page the server draws, from navigation start. */
  async capture(url: string, view: View): Promise<{ html: string; waterfall: string[] }> {
    const context = await this.context(view.first, true);
    try {
      const page = await context.newPage();
      await firstRow(page, url, view.first);
      await page.goto('about:blank');
      await firstRow(page, url, view.first);
      await page.waitForLoadState('networkidle');
      const texts = await page
        .locator(view.rows)
        .evaluateAll((rows) =>
          rows.map((row) =>
            row.tagName === 'TR'
              ? [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())
              : [(row.textContent ?? '').trim()],
          ),
        );
      const waterfall = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((entry) => {
          const resource = entry as PerformanceResourceTiming;
          const name = new URL(resource.name).pathname;
          return `${String(Math.round(resource.startTime)).padStart(5)} → ${String(Math.round(resource.responseEnd)).padStart(5)} ms  ${name}`;
        }),
      );
      return { html: staticPage(view, texts), waterfall };
    } finally {
      await context.close();
    }
  }
}

/** The same rows, server-rendered: what a PHP admin page sends. The row the observer waits for is the first. */
function staticPage(view: View, rows: string[][]): string {
  const body = rows
    .map((cells) => `<tr>${cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('\n');
  const marker = view.first.match(/data-testid="([^"]+)"/)?.[1] ?? 'rows';
  const table = view.first.includes('tbody')
    ? `<table data-testid="${marker}"><tbody>\n${body}\n</tbody></table>`
    : rows.map((cells) => `<div data-testid="${marker}">${escapeHtml(cells.join(' '))}</div>`).join('\n');
  return `<!doctype html>\n<html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(view.name)}</title></head>\n<body>\n${table}\n</body></html>\n`;
}

/** The rows each view shows, written as its static page into `dist`, and the mail view's waterfall. */
async function captureViews(browser: Browser, dist: string): Promise<string[]> {
  const server = await startServer({ env: { PANEL_WEB_DIST: dist } });
  try {
    const cookie = await login(server);
    const id = await demoServiceId(server, cookie);
    const session = new Session(browser, server, cookie);
    let waterfall: string[] = [];
    for (const view of VIEWS) {
      const captured = await session.capture(`${server.url}${view.path(id)}`, view);
      writeFileSync(path.join(dist, 'bench-static', staticFile(view)), captured.html);
      if (view.name === 'mail list') waterfall = captured.waterfall;
    }
    return waterfall;
  } finally {
    await server.stop();
  }
}

const staticFile = (view: View) => `${view.name.replace(/\W+/g, '-').toLowerCase()}.html`;

async function main(): Promise<void> {
  // a copy of the build, so the static pages live beside the app without touching apps/web/dist
  const dist = mkdtempSync(path.join(tmpdir(), 'p247-first-screen-'));
  cpSync(path.join(REPO_ROOT, 'apps/web/dist'), dist, { recursive: true });
  mkdirSync(path.join(dist, 'bench-static'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
  try {
    // the server serves the files its folder held when it started: a first one (the same demo
    // data) shows the rows the static pages copy, a second one serves both
    const waterfall = await captureViews(browser, dist);
    const server = await startServer({ env: { PANEL_WEB_DIST: dist } });
    try {
      const cookie = await login(server);
      const id = await demoServiceId(server, cookie);
      const session = new Session(browser, server, cookie);
      console.log(`\nWaterfall of a warm visit to ${VIEWS[2]?.path(id)} (request start → end, from navigation)`);
      for (const line of waterfall) console.log(`  ${line}`);
      const rows: string[][] = [];
      for (const view of VIEWS) {
        const url = `${server.url}${view.path(id)}`;
        await drawnBefore(url, cookie);
        const drawn = { cold: [] as number[], warm: [] as number[] };
        const app = { cold: [] as number[], warm: [] as number[] };
        const page = { cold: [] as number[], warm: [] as number[] };
        for (let round = 0; round < ROUNDS; round += 1) {
          // taking turns: a slow moment of a busy machine falls on all three
          for (const [times, next] of [
            [drawn, await session.times(url, view.first, true)],
            [app, await session.times(url, view.first)],
            [page, await session.times(`${server.url}/bench-static/${staticFile(view)}`, view.first)],
          ] as const) {
            times.cold.push(next.cold);
            times.warm.push(next.warm);
          }
        }
        const [dw, aw, sw] = [median(drawn.warm), median(app.warm), median(page.warm)];
        const [dc, ac, sc] = [median(drawn.cold), median(app.cold), median(page.cold)];
        rows.push([
          view.name,
          ms(sw),
          ms(dw),
          ratio(dw, sw),
          ms(aw),
          ratio(aw, sw),
          ms(sc),
          ms(dc),
          ratio(dc, sc),
          ms(ac),
          ratio(ac, sc),
        ]);
      }
      printTable(rows);
    } finally {
      await server.stop();
    }
  } finally {
    await browser.close();
    rmSync(dist, { recursive: true, force: true });
  }
}

function printTable(rows: string[][]): void {
  // drawn: the server drew the first screen; app: the app drew it (no view cookie)
  const header = ['view', 'warm static', 'drawn', '×', 'app', '×', 'cold static', 'drawn', '×', 'app', '×'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  console.log(`\nFirst rows on screen, median of ${ROUNDS} (aim: warm ≤ 3×, cold ≤ 5× the static page)`);
  console.log('drawn: the server drew the first screen (a returning browser); app: the app drew it (no view cookie)');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
