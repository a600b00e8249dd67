import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VIEW_COOKIE } from '@panel247/contract/constants';
import type { MailListData } from '@panel247/contract/mail';
import type { StatsSitesData } from '@panel247/contract/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendererFile } from '../../src/http/server-render.ts';
import { type SignedInAccount, signedInAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/** The web build the panel serves, with its page renderer (`npm run build -w apps/web`); PANEL_WEB_DIST: another one. */
const WEB_DIST = process.env.PANEL_WEB_DIST ?? path.resolve(import.meta.dirname, '../../../web/dist');
const built = rendererFile(WEB_DIST) !== null;
if (!built && process.env.CI === 'true') {
  throw new Error(`no page renderer in ${WEB_DIST}: build the web app (npm run build -w apps/web) first`);
}
if (!built) console.warn(`server-draw: no web build in ${WEB_DIST}; skipping`);

/** The web build's manifest: the files each module became. */
const manifest = () =>
  JSON.parse(readFileSync(path.join(WEB_DIST, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;

const viewCookie = (fields: Record<string, string>) =>
  `${VIEW_COOKIE}=${encodeURIComponent(new URLSearchParams(fields).toString())}`;
const MADRID_DARK = viewCookie({ tz: 'Europe/Madrid', phone: '0', scheme: 'dark', color: 'teal' });

interface Boot {
  user?: { user: string };
  queries?: { queryKey: unknown[]; data: unknown }[];
  drawnFor?: { phone: boolean };
}

/**
 * A signed-in page's first screen drawn on the server by the web build's renderer, in its worker
 * (apps/server/src/http/server-draw.ts): with the page's own cookie's answers, and nothing of anyone
 * else's.
 */
describe.skipIf(!built).each(DATABASE_KINDS)('a page drawn on the server (%s)', (kind) => {
  let t: TestApp;
  let ana: SignedInAccount;
  let luis: SignedInAccount;

  beforeAll(async () => {
    const mailRoot = mkdtempSync(path.join(tmpdir(), 'p247-drawn-'));
    t = await buildTestApp(kind, { config: { webDist: WEB_DIST, 'mail.root': mailRoot } });
    ana = await signedInAccount(t, `ana-drawn-${kind}.test`);
    luis = await signedInAccount(t, `luis-drawn-${kind}.test`);
    await t.call(
      'POST',
      `service/${ana.id}/correo/create/`,
      { name: 'ventas', password: 'a mailbox password' },
      {
        cookie: ana.cookie,
      },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = (url: string, cookies: string[]) =>
    t.app.inject({ method: 'GET', url, headers: { cookie: cookies.join('; '), 'accept-language': 'es' } });
  /** The page without its boot block: what the server drew. */
  const drawnOf = (html: string) =>
    html.replace(/<script type="application\/json" id="panel247-boot">[^<]*<\/script>/, '');
  const bootOf = (html: string) =>
    JSON.parse(
      /<script type="application\/json" id="panel247-boot">([^<]*)<\/script>/.exec(html)?.[1] ?? 'null',
    ) as Boot;

  it('draws the mail view with the user’s own mailboxes, and carries the answers it drew with', async () => {
    const answer = await page(`/admin/${ana.id}/mail/`, [ana.cookie, MADRID_DARK]);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-cache');
    expect(answer.body).toContain('<div id="root" data-server-drawn inert aria-disabled="true">');
    expect(answer.body).toContain('data-mantine-color-scheme="dark"');
    expect(drawnOf(answer.body)).toContain(`ventas@${ana.domainName}`);
    const boot = bootOf(answer.body);
    expect(boot.drawnFor).toEqual({ phone: false });
    // what the page was drawn with is what the view's own call answers
    const list = boot.queries?.find((query) => query.queryKey[0] === 'mail' && query.queryKey[2] === 'pages');
    const own = await t.call<MailListData>(
      'GET',
      `service/${ana.id}/mail/list/`,
      { page: '1', pageSize: '10', type: 'all', filter: '' },
      { cookie: ana.cookie },
    );
    expect(list?.data).toEqual(own.body.data);
  });

  it('draws the FTP view whole: its accounts, its server card and its SFTP keys, nothing left loading', async () => {
    const answer = await page(`/admin/${ana.id}/service/ftp/`, [ana.cookie, MADRID_DARK]);
    expect(answer.statusCode).toBe(200);
    const drawn = drawnOf(answer.body);
    expect(drawn).toContain('data-testid="ftp-list"');
    expect(drawn).toContain('data-testid="ftp-server-table"');
    expect(drawn).toContain('data-testid="sftp-key-add"');
    // no boundary the server gave up on (`<!--$!-->`), no skeleton waiting for a call
    expect(drawn).not.toContain('<!--$!-->');
    expect(drawn).not.toMatch(/skeleton|role="status"/);
    const keys = bootOf(answer.body).queries?.map((query) => query.queryKey.slice(0, 3));
    expect(keys).toEqual([
      ['ftp', ana.id, 'pages'],
      ['ftp', ana.id, 'main'],
      ['ftp', ana.id, 'keys'],
    ]);
  });

  it('draws the hosting overview whole: its service, resources and redirection cards, nothing left loading', async () => {
    const answer = await page(`/admin/${ana.id}/service/`, [ana.cookie, MADRID_DARK]);
    expect(answer.statusCode).toBe(200);
    const drawn = drawnOf(answer.body);
    for (const card of ['hosting-php-select', 'hosting-resources', 'hosting-ftp-host'])
      expect(drawn).toContain(`data-testid="${card}"`);
    expect(drawn).not.toContain('<!--$!-->');
    expect(drawn).not.toMatch(/skeleton|role="status"/);
    const queries = bootOf(answer.body).queries ?? [];
    expect(queries.map((query) => query.queryKey.slice(0, 3))).toEqual([
      ['hosting', ana.id, 'service'],
      ['ftp', ana.id, 'main'],
      ['ftp', ana.id, 'accounts'],
      ['hosting', ana.id, 'redirection-pages'],
    ]);
    // the page carries what the view's query holds: the answer's one field, as the browser keeps it
    const service = await t.call<{ service: unknown }>('GET', `service/${ana.id}/`, {}, { cookie: ana.cookie });
    expect(queries[0]?.data).toEqual(service.body.data.service);
    expect(Array.isArray(queries[2]?.data)).toBe(true);
  });

  it('draws the domain view whole: its DNS, actions and contacts cards, nothing left loading', async () => {
    const answer = await page(`/admin/${ana.id}/domain/`, [ana.cookie, MADRID_DARK]);
    expect(answer.statusCode).toBe(200);
    const drawn = drawnOf(answer.body);
    for (const card of ['dns-card', 'glue-preview', 'dnssec-preview']) expect(drawn).toContain(`data-testid="${card}"`);
    expect(drawn).not.toContain('data-loading="true"');
    expect(drawn).not.toContain('<!--$!-->');
    const queries = bootOf(answer.body).queries ?? [];
    expect(queries.map((query) => query.queryKey)).toEqual([
      ['domain', ana.id, 'data'],
      ['domain', ana.id, 'glue'],
      ['domain', ana.id, 'dnssec'],
    ]);
    expect(Array.isArray(queries[1]?.data)).toBe(true);
  });

  it('draws the sites, databases and backups views with their lists, not their skeletons', async () => {
    for (const [view, testId, skeleton, key] of [
      [
        'subdomain/',
        'sites-view',
        'hosting-site-skeleton',
        ['hosting', ana.id, 'subdomain-pages', { page: 1, filter: '' }],
      ],
      ['ddbb/', 'ddbb-view', 'ddbb-skeleton', ['databases', ana.id, 'list']],
      ['backups/', 'backups-view', 'backups-skeleton', ['backups', ana.id]],
    ] as const) {
      const answer = await page(`/admin/${ana.id}/service/${view}`, [ana.cookie, MADRID_DARK]);
      const drawn = drawnOf(answer.body);
      expect(drawn, view).toContain(`data-testid="${testId}"`);
      expect(drawn, view).not.toContain(`data-testid="${skeleton}"`);
      expect(bootOf(answer.body).queries?.map((query) => query.queryKey)).toEqual([key]);
    }
  });

  it('draws the file manager, the tasks, the statistics, the spam filter and the item’s log with their first data', async () => {
    const filters = { user: '', area: '', from: '', to: '', resource: ana.id };
    // the statistics' first data is the service's sites (its first site's month follows it)
    const stats = await t.call<StatsSitesData>('GET', `service/${ana.id}/stats/`, {}, { cookie: ana.cookie });
    const firstSite = stats.body.data.sites[0]?.host;
    // each view's key, and what it draws only once its data is in (the writable folder's tools,
    // the task list, the site chosen, the mailbox the account made, the log's entry of it)
    for (const [view, key, shown] of [
      ['service/files/?path=', ['files', ana.id, 0, 'list', ''], 'data-testid="files-new-folder"'],
      ['service/cron/', ['cron', ana.id, 'list', 'es'], 'data-testid="cron-list"'],
      [
        'service/stats/',
        ['stats', ana.id, 'sites'],
        firstSite === undefined ? 'data-testid="stats-no-sites"' : `value="${firstSite}"`,
      ],
      ['service/mail/spam/', ['mail', ana.id, 'spam'], `ventas@${ana.domainName}`],
      ['activity/', ['activity', filters, 1], 'ventas'],
    ] as const) {
      const answer = await page(`/admin/${ana.id}/${view}`, [ana.cookie, MADRID_DARK]);
      expect(answer.statusCode, view).toBe(200);
      expect(
        bootOf(answer.body).queries?.map((query) => query.queryKey),
        view,
      ).toEqual([key]);
      expect(drawnOf(answer.body), view).toContain(shown);
    }
  });

  it('draws the account’s log, its users and the preferences’ cards with their first data', async () => {
    const list = await t.call<{ manageUsers?: boolean }>('GET', 'permission/list/', {}, { cookie: ana.cookie });
    expect(list.body.data.manageUsers).toBe(true);
    for (const [view, keys, shown] of [
      ['activity/', [['activity', { user: '', area: '', from: '', to: '' }, 1]], 'ventas'],
      [
        'users/',
        [['users', 'list', { page: 1, filter: '', sort: 'username', order: 'asc' }]],
        'data-testid="user-last-login"',
      ],
      [
        'preferences/',
        [
          ['user', 'twofactor'],
          ['user', 'passkeys'],
          ['user', 'sessions'],
          ['user', 'apitokens'],
        ],
        'data-testid="two-factor-state"',
      ],
    ] as const) {
      const answer = await page(`/admin/${view}`, [ana.cookie, MADRID_DARK]);
      expect(answer.statusCode, view).toBe(200);
      expect(
        bootOf(answer.body).queries?.map((query) => query.queryKey),
        view,
      ).toEqual(keys);
      expect(drawnOf(answer.body), view).toContain(shown);
    }
    // another user's page: asked, refused, so drawn as the app would (not found), with nothing of it
    const other = await page(`/admin/users/${luis.userId}/`, [ana.cookie, MADRID_DARK]);
    expect(bootOf(other.body).queries).toEqual([]);
    expect(other.body).not.toContain(luis.domainName);
  });

  it('draws every screen of the layout without leaving a part of it to the browser', async () => {
    const item = (view: string) => `/admin/${ana.id}/${view}`;
    const screens = [
      ...['', 'contact/', 'preferences/', 'domain/', 'service/', 'mail/', 'activity/', 'users/', 'no-such-page/'].map(
        (view) => `/admin/${view}`,
      ),
      ...['domain/', 'mail/', 'activity/', 'service/'].map(item),
      ...['ftp/', 'files/', 'subdomain/', 'ddbb/', 'dns/', 'backups/', 'cron/', 'stats/', 'mail/spam/'].map((view) =>
        item(`service/${view}`),
      ),
    ];
    // one after another: the renderer's worker draws one page at a time anyway
    for (const url of screens) {
      const answer = await page(url, [ana.cookie, MADRID_DARK]);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.body, url).toContain('<div id="root" data-server-drawn');
      expect(drawnOf(answer.body), url).not.toContain('<!--$!-->');
    }
  });

  it('names the view in the tab’s title and links the chunks the app takes the page over with', async () => {
    const answer = await page(`/admin/${ana.id}/mail/`, [ana.cookie, MADRID_DARK]);
    expect(/<title>([^<]*)<\/title>/.exec(answer.body)?.[1]).toMatch(new RegExp(`· ${ana.domainName} / `));
    const chunks = manifest();
    // linked by a script after the rows (late-start.ts): the list it reads
    const listed = /<script type="application\/json" id="panel247-preloads" data-entry="[^"]+">([^<]*)<\/script>/.exec(
      answer.body,
    );
    const linked = (JSON.parse(listed?.[1] ?? '[]') as string[]).map((href) => href.replace(/^\//, ''));
    // none in the HTML after the rows (those in <head> are the entry's own, from index.html)
    expect(answer.body.slice(answer.body.indexOf('<div id="root"'))).not.toContain('rel="modulepreload"');
    for (const module of [
      'src/features/shell/components/app-layout.tsx',
      'src/features/mail/routes/mail-route.tsx',
      'virtual:locale/es-start',
      'virtual:locale/es-areas',
    ]) {
      expect(linked, module).toContain(chunks[module]?.file);
    }
    // the entry script's own chunks are index.html's to load
    expect(linked).not.toContain(chunks['index.html']?.file);
  });

  it('never draws another user’s item: the page of an id that is not the user’s holds none of it', async () => {
    const answer = await page(`/admin/${ana.id}/mail/`, [luis.cookie, MADRID_DARK]);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).not.toContain(ana.domainName);
    expect(bootOf(answer.body).queries).toEqual([]);
    expect(bootOf(answer.body).user).toMatchObject({ user: luis.username });
  });

  it('leaves the page to the app without the view cookie, with a zone it does not know, or signed out', async () => {
    for (const [cookies, links] of [
      [[ana.cookie], true],
      [[ana.cookie, viewCookie({ tz: 'Nowhere/Atlantis' })], true],
      [['p247_sid=not-a-session', MADRID_DARK], false],
    ] as const) {
      const answer = await page(`/admin/${ana.id}/mail/`, [...cookies]);
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toContain('<div id="root"></div>');
      expect(answer.body).not.toContain(`ventas@${ana.domainName}`);
      // a signed-in page the app draws still links the code it draws the view with
      expect(answer.body.includes(`href="/${manifest()['src/features/mail/routes/mail-route.tsx']?.file}"`)).toBe(
        links,
      );
    }
  });

  it('leaves the console and the invitation page to the app', async () => {
    for (const url of ['/console/', '/invitation/']) {
      const answer = await page(url, [ana.cookie, MADRID_DARK]);
      expect(answer.body, url).toContain('<div id="root"></div>');
    }
  });
});
