/**
 * `npm run bench:first-screen-links`: where a drawn page's scripts and `modulepreload` links cost
 * or pay, by visiting the same drawn page (the mail and DNS views) three ways in one run, in turns:
 *
 * - `sent`: the page as the server sends it: once the rows are on screen, a script links its chunks
 *   and runs the entry script (apps/server/src/http/late-start.ts);
 * - `none`: the entry script at the end of `<body>`, run once the HTML is parsed, and no links (the
 *   app asks for the chunks once its entry runs);
 * - `html`: the same entry script, and the chunks' links in the HTML before it, where the preload
 *   scanner finds them as the response starts (as a page the app draws has them).
 *
 * For each, warm (the context's second visit) and cold (its first): when the first row entered the
 * document and when it was painted (as `bench:first-screen` times it), and when the app had taken
 * the page over (`#root` no longer marked drawn). Medians, and the spread of the warm first rows:
 * one slow moment is not a trend. The pages are altered in the browser (Chromium's Fetch domain,
 * which leaves the HTTP cache on, but holds a page until its last byte: the head the server sends
 * before the rows arrives with them here); the page's CSP stays, as its hash allows the sent page's
 * script.
 *
 * A benchmark reports: it exits 0 whatever the figures, 1 only when it cannot run.
 */
import { VIEW_COOKIE } from '@panel247/contract/constants';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../support/browser';
import { type PanelServer, startServer } from '../support/server';
import { waitForQuietMachine } from './quiet-machine';
import { ROW_PAINT_OBSERVER } from './row-paint';
import { demoServiceId, drawnBefore, login, median, VIEW } from './signed-in';

const ROUNDS = Number(process.env.ROUNDS ?? 11);
const VARIANTS = ['sent', 'none', 'html'] as const;
type Variant = (typeof VARIANTS)[number];

interface Visit {
  inserted: number;
  painted: number;
  usable: number;
}

/** Notes, from navigation start, the first row's insertion and paint (row-paint.ts), and the page turning usable. */
const OBSERVER = (selector: string) => `
  window.__visit = { inserted: 0, painted: 0, usable: 0 };
  const visit = window.__visit;
  new MutationObserver((_, observer) => {
    const root = document.getElementById('root');
    if (!root) return;
    new MutationObserver(() => {
      if (!visit.usable && !root.hasAttribute('data-server-drawn')) visit.usable = performance.now();
    }).observe(root, { attributes: true });
    observer.disconnect();
  }).observe(document, { subtree: true, childList: true });
  ${ROW_PAINT_OBSERVER(selector, 'visit')}
`;

const LISTED =
  /<script type="application\/json" id="panel247-preloads" data-entry="([^"]+)">([^<]*)<\/script><script>[^<]*<\/script>/;

/** The page's HTML as `variant` has it: only the server's listed chunks and their script are touched. */
function rewrite(html: string, variant: Variant): string {
  const listed = LISTED.exec(html);
  if (variant === 'sent' || !listed) return html;
  const hrefs = JSON.parse(listed[2] ?? '[]') as string[];
  const links = variant === 'html' ? hrefs.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`) : [];
  const entry = `<script type="module" crossorigin src="${listed[1]}"></script>`;
  return html.replace(LISTED, () => links.join('') + entry);
}

async function serveAs(context: BrowserContext, page: Page, variant: Variant): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Response' }] });
  cdp.on('Fetch.requestPaused', async (event) => {
    const { body, base64Encoded } = await cdp.send('Fetch.getResponseBody', { requestId: event.requestId });
    const html = rewrite(base64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body, variant);
    const headers = (event.responseHeaders ?? []).filter(
      (header) => !/^(content-encoding|content-length)$/i.test(header.name),
    );
    await cdp.send('Fetch.fulfillRequest', {
      requestId: event.requestId,
      responseCode: event.responseStatusCode ?? 200,
      responseHeaders: headers,
      body: Buffer.from(html).toString('base64'),
    });
  });
}

async function visit(page: Page, url: string): Promise<Visit> {
  await waitForQuietMachine();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => {
    const { painted, usable } = (window as unknown as { __visit: Visit }).__visit;
    return painted > 0 && usable > 0;
  });
  return page.evaluate(() => (window as unknown as { __visit: Visit }).__visit);
}

/** A cold and a warm visit to `url` in a new context, its page served as `variant`. */
async function coldAndWarm(
  browser: Browser,
  server: PanelServer,
  cookie: string,
  url: string,
  selector: string,
  variant: Variant,
) {
  const context = await browser.newContext({
    viewport: { width: 1350, height: 940 },
    locale: 'es-ES',
    timezoneId: 'UTC',
  });
  try {
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([
      { name, value, url: server.url },
      { name: VIEW_COOKIE, value: VIEW, url: server.url },
    ]);
    await context.addInitScript(OBSERVER(selector));
    const page = await context.newPage();
    await serveAs(context, page, variant);
    const cold = await visit(page, url);
    await page.goto('about:blank');
    const warm = await visit(page, url);
    return { cold, warm };
  } finally {
    await context.close();
  }
}

const round = (value: number) => String(Math.round(value));

async function main(): Promise<void> {
  const server = await startServer({});
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
  try {
    const cookie = await login(server);
    const id = await demoServiceId(server, cookie);
    const views = [
      { name: 'mail list', url: `${server.url}/admin/${id}/mail/`, first: '[data-testid="mail-list"] tbody tr' },
      {
        name: 'DNS records',
        url: `${server.url}/admin/${id}/service/dns/`,
        first: '[data-testid="dns-list"] tbody tr',
      },
    ];
    for (const view of views) await drawnBefore(view.url, cookie);
    console.log(`Drawn pages, median of ${ROUNDS}, ms from navigation (first row: when it is painted)`);
    console.log('view         links  warm row  warm usable  cold row  cold usable   warm rows, sorted');
    for (const view of views) {
      const visits = new Map<Variant, { cold: Visit; warm: Visit }[]>(VARIANTS.map((variant) => [variant, []]));
      for (let turn = 0; turn < ROUNDS; turn += 1) {
        // taking turns: a slow moment of a busy machine falls on all three
        for (const variant of VARIANTS) {
          visits.get(variant)?.push(await coldAndWarm(browser, server, cookie, view.url, view.first, variant));
        }
      }
      for (const [variant, all] of visits) {
        const of = (pick: (one: { cold: Visit; warm: Visit }) => number) => round(median(all.map(pick)));
        const spread = all
          .map((one) => one.warm.painted)
          .sort((a, b) => a - b)
          .map(round)
          .join(' ');
        console.log(
          [
            view.name.padEnd(12),
            variant.padEnd(5),
            of((one) => one.warm.painted).padStart(8),
            of((one) => one.warm.usable).padStart(11),
            of((one) => one.cold.painted).padStart(8),
            of((one) => one.cold.usable).padStart(11),
            `  ${spread}`,
          ].join('  '),
        );
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
