import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, type NewPageOptions, newContext, SERVER_DRAWN, trackErrors } from '../support/browser';
import { ADMIN, type Credentials, loginNoCaptcha, VIEWER } from '../support/panel';
import { browserSuite } from '../support/suite';
import { drawnByTheApp } from '../support/ui';

/**
 * A signed-in page carries its boot's first answers (apps/server/src/http/boot-data.ts) and, once
 * the browser has told the server how it shows the panel (the view cookie), its first screen drawn
 * on the server (apps/server/src/http/server-draw.ts); a page the app draws asks for a view's code
 * and first data at once (apps/web/src/app/router.tsx). What a page may carry, and what the app
 * does when what it carried is out of date or names nothing.
 */

const CSRF = { 'x-dd-request': '1' };

async function signedIn(
  suite: { browser: Browser; server: { url: string } },
  who: Credentials,
  options: NewPageOptions = {},
) {
  const context = await newContext(suite.browser, options);
  const page = await context.newPage();
  await loginNoCaptcha(page, suite.server.url, who);
  return { context, page };
}

/** The boot data of the page the server sends to `context` (its cookies) for `path`, and the answer's headers. */
async function pageOf(context: BrowserContext, url: string) {
  const response = await context.request.get(url);
  const html = await response.text();
  const block = /<script type="application\/json" id="panel247-boot">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return { html, headers: response.headers(), boot: block ? (JSON.parse(block) as Record<string, unknown>) : null };
}

/** Notes, from the document's start, whether `selector` ever matched: a view that flashed is caught. */
const EVER_SEEN = (selector: string) => `
  window.__everSeen = false;
  new MutationObserver(() => {
    if (document.querySelector(${JSON.stringify(selector)})) window.__everSeen = true;
  }).observe(document, { subtree: true, childList: true });
`;
const everSeen = (page: Page) => page.evaluate(() => (window as unknown as { __everSeen: boolean }).__everSeen);

/**
 * Keeps, when the HTML is parsed and before any script of the app has run, the first element
 * matching `selector` and its text: what the server drew, to compare with what the app shows.
 */
const AS_DRAWN = (selector: string) => `
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    window.__drawn = document.querySelector(${JSON.stringify(selector)});
    window.__drawnText = window.__drawn ? window.__drawn.innerText : null;
  });
`;

/** Whether what the server drew is still the page's (the app hydrated it rather than drawing it again), and its text then. */
const asDrawn = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const drawn = window as unknown as { __drawn: Element | null; __drawnText: string | null };
    return {
      kept: drawn.__drawn !== null && drawn.__drawn === document.querySelector(selector),
      text: drawn.__drawnText,
    };
  }, selector);

/**
 * The paths `page` asks for from here on, as they come. The page first leaves for about:blank, so
 * the calls of the view the login opened are not counted as the next page's.
 */
async function requestsFromHere(page: Page): Promise<string[]> {
  await page.goto('about:blank');
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

/** The chunks a drawn page lists for its script to link once the rows are on screen (apps/server/src/http/late-start.ts). */
function listedPreloads(html: string): string[] {
  const list = /<script type="application\/json" id="panel247-preloads" data-entry="[^"]+">([^<]*)<\/script>/.exec(
    html,
  );
  return list ? (JSON.parse(list[1] ?? '[]') as string[]) : [];
}

/** The scripts among `paths` that the page did not link (its entry script, its `modulepreload`s, its listed chunks and entry). */
function unlinkedScripts(html: string, paths: string[]): string[] {
  const linked = new Set([
    ...[...html.matchAll(/<(?:link rel="modulepreload"|script type="module") crossorigin (?:href|src)="([^"]+)"/g)].map(
      (link) => link[1],
    ),
    ...listedPreloads(html),
    /id="panel247-preloads" data-entry="([^"]+)"/.exec(html)?.[1],
  ]);
  return paths.filter((path) => path.endsWith('.js') && !linked.has(path));
}

async function itemId(page: Page, reference: string): Promise<number> {
  const answer = await page.request.get(new URL('/p247/permission/list/', page.url()).href, { headers: CSRF });
  const body = (await answer.json()) as { data: { permissions: { id: number; reference: string }[] } };
  const entry = body.data.permissions.find((permission) => permission.reference === reference);
  if (!entry) throw new Error(`${reference} is not in the permission list`);
  return entry.id;
}

describe.skipIf(!chromiumAvailable())('a view’s first screen', () => {
  const suite = browserSuite({});
  /** The admin's grant on mail-demo.test, changed through the CLI. */
  const mailDemoGrant = (verb: 'revoke' | 'set', ...levels: string[]) =>
    suite.server.cli([
      'permission',
      verb,
      '--domain',
      'demo.test',
      '--user',
      ADMIN.user,
      '--reference',
      'mail-demo.test',
      ...levels,
    ]);

  it('carries only its own session’s answers, never another’s, and no shared cache keeps it', async () => {
    const admin = await signedIn(suite, ADMIN);
    const viewer = await signedIn(suite, VIEWER);
    try {
      const adminPage = await pageOf(admin.context, `${suite.server.url}/admin/`);
      const viewerPage = await pageOf(viewer.context, `${suite.server.url}/admin/`);
      expect(adminPage.boot?.user).toMatchObject({ user: ADMIN.user });
      expect(viewerPage.boot?.user).toMatchObject({ user: VIEWER.user });
      expect(JSON.stringify(viewerPage.boot)).not.toContain(`"user":"${ADMIN.user}"`);
      for (const { headers } of [adminPage, viewerPage]) {
        expect(headers['cache-control']).toBe('private, no-cache');
        expect(headers.vary).toContain('Cookie');
      }
      // the viewer's app shows the viewer, from the page, without asking who it is
      const calls = await requestsFromHere(viewer.page);
      await viewer.page.goto(`${suite.server.url}/admin/`);
      await viewer.page.getByTestId('user-card').waitFor();
      expect(await viewer.page.getByTestId('user-menu').textContent()).toContain(VIEWER.user);
      expect(calls.filter((path) => path.startsWith('/p247/'))).toEqual([]);

      // after a logout the same cookie's page carries no one, and the app goes to the login page
      const cookie = (await admin.context.cookies()).find((entry) => entry.name === 'p247_sid');
      await admin.page.request.post(`${suite.server.url}/p247/user/logout/`, { headers: CSRF });
      if (cookie) await admin.context.addCookies([cookie]);
      const after = await pageOf(admin.context, `${suite.server.url}/admin/`);
      expect(after.boot?.user).toBeUndefined();
      expect(after.html).not.toContain(`"user":"${ADMIN.user}"`);
      await admin.page.goto(`${suite.server.url}/admin/`);
      await admin.page.waitForURL((url) => url.pathname === '/login/');
    } finally {
      await admin.context.close();
      await viewer.context.close();
    }
  });

  it('draws the mail view’s first rows on the server; the app takes them over without asking for them again', async () => {
    const { context, page } = await signedIn(suite, ADMIN);
    try {
      const errors = trackErrors(page);
      const id = await itemId(page, 'demo.test');
      const url = `${suite.server.url}/admin/${id}/mail/`;
      const sent = await pageOf(context, url);
      expect(sent.html).toContain('<div id="root" data-server-drawn inert aria-disabled="true">');
      expect(sent.html).toContain('info@demo.test');
      expect(sent.html).toMatch(/<link rel="stylesheet" href="\/assets\/styles-[\w-]+\.css">/);
      expect(sent.boot?.queries).toHaveLength(2);
      // the tab is named for the view before the app runs
      expect(sent.html).toMatch(/<title>[^<]* · demo\.test \/ [^<]+<\/title>/);

      await page.addInitScript(AS_DRAWN('[data-testid="mail-list"]'));
      const calls = await requestsFromHere(page);
      await page.goto(url, { waitUntil: 'commit' });
      // the head comes before the rows: the page is usable once its root is there and taken over
      await page.waitForFunction(
        (selector) => document.getElementById('root') && !document.querySelector(selector),
        SERVER_DRAWN,
      );
      // every script the app took the page over with was linked by the page: none was found only
      // once another had run
      expect(calls.filter((path) => path.endsWith('.js')).length).toBeGreaterThan(10);
      expect(unlinkedScripts(sent.html, calls)).toEqual([]);
      // the chunks are listed after the rows, not linked in the HTML, and the page's script (allowed
      // by the CSP) linked them all
      const listed = listedPreloads(sent.html);
      expect(listed.length).toBeGreaterThan(10);
      expect(sent.html).not.toContain('rel="modulepreload" crossorigin href="/assets/mail-route');
      // nor any script to run or compile before the rows are on screen: the same script runs the entry
      expect(sent.html).not.toContain('rel="modulepreload"');
      expect(sent.html).not.toContain('<script type="module"');
      const entry = /data-entry="([^"]+)"/.exec(sent.html)?.[1];
      const ran = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLScriptElement>('script[type="module"]')].map(
          (script) => new URL(script.src).pathname,
        ),
      );
      expect(ran).toEqual([entry]);
      expect(sent.html.indexOf('panel247-preloads')).toBeGreaterThan(sent.html.indexOf('info@demo.test'));
      const preloaded = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map(
          (link) => new URL(link.href).pathname,
        ),
      );
      expect(preloaded).toEqual(expect.arrayContaining(listed));
      const drawn = await asDrawn(page, '[data-testid="mail-list"]');
      expect(drawn.text).toContain('info@demo.test');
      expect(drawn.kept).toBe(true);
      expect(await page.locator('#root').getAttribute('inert')).toBeNull();
      expect(await page.locator('#root').getAttribute('aria-disabled')).toBeNull();
      expect(calls.filter((path) => path.startsWith('/p247/'))).toEqual([]);
      // the app is running the page: its filter asks the server
      await page.getByTestId('mail-filter').fill('info');
      await page.waitForRequest((request) => request.url().includes('/mail/list/') && request.url().includes('info'));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('draws the other views with their data, an item’s and the account’s; the app keeps them', async () => {
    const { context, page: first } = await signedIn(suite, ADMIN);
    try {
      const id = await itemId(first, 'demo.test');
      for (const [view, selector, queries] of [
        [`${id}/service/files/`, '[data-testid="files-list"]', 1],
        [`${id}/service/cron/`, '[data-testid="cron-list"]', 1],
        [`${id}/service/stats/`, '[data-testid="stats-site"]', 1],
        [`${id}/service/mail/spam/`, '[data-testid="spam-mailboxes"]', 1],
        [`${id}/activity/`, '[data-testid="activity-list"]', 1],
        ['activity/', '[data-testid="activity-list"]', 1],
        ['users/', '[data-testid="users-list"]', 1],
        ['preferences/', '[data-testid="sessions-list"]', 4],
      ] as const) {
        const url = `${suite.server.url}/admin/${view}`;
        const sent = await pageOf(context, url);
        expect(sent.html, view).toContain('data-server-drawn');
        expect(sent.boot?.queries, view).toHaveLength(queries);
        const page = await context.newPage();
        const errors = trackErrors(page);
        await page.addInitScript(AS_DRAWN(selector));
        const calls = await requestsFromHere(page);
        await page.goto(url);
        const drawn = await asDrawn(page, selector);
        expect(drawn.kept, view).toBe(true);
        // nothing the page carried is asked again (the statistics' chosen site comes after its sites)
        expect(
          calls.filter((path) => path.startsWith('/p247/') && !path.endsWith('/stats/site/')),
          view,
        ).toEqual([]);
        expect(errors, view).toEqual([]);
        await page.close();
      }
    } finally {
      await context.close();
    }
  });

  it('turns a drawn page usable only once its view has hydrated: on a slow CPU, a language chosen at once takes', async () => {
    const { context, page } = await signedIn(suite, ADMIN);
    try {
      const errors = trackErrors(page);
      // React hydrates the root first and the layout's and the view's boundaries after it, when
      // idle: six times slower, the root's effects ran well before the view took its handlers
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
      // goto resolves once the page is no longer marked drawn (support/browser.ts)
      const sent = await page.goto(`${suite.server.url}/admin/preferences/`);
      expect(await sent?.text()).toContain('data-server-drawn');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
      await page.getByTestId('language-select').selectOption('en');
      await page.getByRole('heading', { level: 1, name: 'Preferences' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('draws in the visitor’s own time zone and scheme, as the app shows it, so hydrating it changes nothing', async () => {
    const { context, page } = await signedIn(suite, ADMIN, { timezoneId: 'Pacific/Kiritimati', colorScheme: 'dark' });
    try {
      const errors = trackErrors(page);
      const sent = await pageOf(context, `${suite.server.url}/admin/`);
      expect(sent.html).toContain('data-mantine-color-scheme="dark"');
      await page.addInitScript(AS_DRAWN('[data-testid="user-card"]'));
      await page.goto(`${suite.server.url}/admin/`);
      const drawn = await asDrawn(page, '[data-testid="user-card"]');
      expect(drawn.kept).toBe(true);
      // the last login, in UTC+14: the browser's and the server's text agree to the minute
      expect(drawn.text).toBe(await page.getByTestId('user-card').innerText());
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('leaves a first visit’s page (no view cookie yet) to the app, which asks for the view’s first page beside its code', async () => {
    const { context, page } = await signedIn(suite, ADMIN);
    try {
      const id = await itemId(page, 'demo.test');
      await drawnByTheApp(page);
      const sent = await pageOf(context, `${suite.server.url}/admin/${id}/mail/`);
      expect(sent.html).toContain('<div id="root"></div>');
      expect(sent.boot?.user).toMatchObject({ user: ADMIN.user });
      const calls = await requestsFromHere(page);
      await page.goto(`${suite.server.url}/admin/${id}/mail/`);
      await page.getByTestId('mail-usage').first().waitFor();
      expect(calls.filter((path) => path.startsWith('/p247/')).sort()).toEqual([
        `/p247/service/${id}/mail/auth/`,
        `/p247/service/${id}/mail/list/`,
      ]);
      // the view's code was linked by the page, so asked with the entry script, and its first
      // page as soon as that script ran: neither waited for the other
      expect(unlinkedScripts(sent.html, calls)).toEqual([]);
      expect(sent.html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/mail-route-[\w-]+\.js">/);
    } finally {
      await context.close();
    }
  });

  it('shows the not-found view, and no row, for a grant revoked between the page and its first call', async () => {
    const { context, page } = await signedIn(suite, ADMIN);
    try {
      const id = await itemId(page, 'mail-demo.test');
      const url = `${suite.server.url}/admin/${id}/mail/`;
      await page.addInitScript(EVER_SEEN('[data-testid="mail-usage"]'));
      // the page is sent with the grant; it is revoked before the app's first call (a page the
      // server drew made that call itself, with the page)
      await drawnByTheApp(page);
      await page.route(url, async (route) => {
        const response = await route.fetch();
        const body = await response.text();
        expect(body).toContain(`"set":{"id":${id}`);
        await mailDemoGrant('revoke');
        await route.fulfill({ response, body });
      });
      const calls = await requestsFromHere(page);
      await page.goto(url);
      await page.getByTestId('not-found').waitFor({ timeout: 15_000 });
      expect(await everSeen(page)).toBe(false);
      // the page's set was asked again after the refused call, and the list for the menus with it
      expect(calls.filter((path) => path.startsWith('/p247/'))).toEqual(
        expect.arrayContaining([`/p247/service/${id}/mail/list/`, `/p247/permission/${id}/`, '/p247/permission/list/']),
      );
    } finally {
      await mailDemoGrant('set', '--all', 'write');
      await context.close();
    }
  });

  it('shows the not-found view for a missing item, with no flash of the view and no call for its data', async () => {
    const { context, page } = await signedIn(suite, ADMIN);
    try {
      await page.addInitScript(EVER_SEEN('[data-testid="mail-usage"], [data-testid="mail-create"]'));
      const calls = await requestsFromHere(page);
      await page.goto(`${suite.server.url}/admin/987654/mail/`);
      await page.getByTestId('not-found').waitFor();
      expect(await everSeen(page)).toBe(false);
      expect(calls.filter((path) => path.startsWith('/p247/service/'))).toEqual([]);
      expect(calls).toContain('/p247/permission/987654/');
    } finally {
      await context.close();
    }
  });
});
