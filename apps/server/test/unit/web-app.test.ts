import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, createBrotliDecompress, gzipSync } from 'node:zlib';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootScript } from '../../src/http/boot-data.ts';
import type { DrawnScreen, PageDrawing } from '../../src/http/server-draw.ts';
import { viewHintsOf } from '../../src/http/view-hints.ts';
import { registerWebApp, type WebAppOptions } from '../../src/http/web-app.ts';

const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

/** The web app of `dist` in a bare Fastify: the `session` cookie is the session's. */
async function webApp(options: Partial<WebAppOptions> & Pick<WebAppOptions, 'dist' | 'captcha'>) {
  const app = Fastify();
  await app.register(fastifyCookie);
  await registerWebApp(app, {
    basePath: '/p247/',
    defaultLanguage: 'es',
    brandOf: async () => ({ company: 'Acme', logo: '/logo.svg' }),
    hasSessionCookie: (request) => Boolean(request.cookies.session),
    ...options,
  });
  return app;
}

/** A real HTTP answer, read as it comes (inject waits for the whole of it). */
function fetchRaw(url: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, { headers }, resolve).on('error', reject));
}

describe('the built web app', () => {
  let dist: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'panel247-web-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html lang="es"><head><title>Panel247</title></head><body><div id="root"></div><!--panel247:shell--></body></html>',
    );
    writeFileSync(
      path.join(dist, 'login-shell.html'),
      '<!-- for the template\'s readers -->\n<div id="boot-shell" data-captcha="{{captcha}}"><img src="{{logo}}" alt="{{company}}"><h1>{{title}}</h1>{{domain}} {{user}} {{password}} {{loading}} © {{year}}</div>',
    );
    const texts = (title: string) => ({
      'login.page_title': `${title}!`,
      'login.title': title,
      'login.domain': 'd',
      'login.user': 'u',
      'login.password': 'p',
      'main.loading': 'l',
    });
    writeFileSync(
      path.join(dist, 'shell-texts.json'),
      JSON.stringify({ es: texts('Accede'), en: texts('Sign in'), ca: texts('Accedeix') }),
    );
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
    const script = path.join(dist, 'assets/index-abc123.js');
    writeFileSync(script, SCRIPT);
    writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
    writeFileSync(`${script}.gz`, gzipSync(SCRIPT));
    app = await webApp({
      dist,
      captcha: 'altcha',
      brandOf: async () => ({ company: 'Acme & <Sons> "$&"', logo: '/logo.svg?a=1&b="2"' }),
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends a hashed script compressed as the client accepts, cached for a year', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const response = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': accept } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const plain = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('does not cache files outside assets/ for long: their names do not change with them', async () => {
    const response = await app.inject({ url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).not.toMatch(/immutable/);
  });

  it('answers client routes with index.html and unknown API paths with the envelope', async () => {
    const page = await app.inject({ url: '/admin/domain/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.body).toContain('<div id="root">');
    const api = await app.inject({ url: '/p247/nothing/' });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/json/);
    // a script of another build is missing, not a page
    const gone = await app.inject({ url: '/assets/index-0ld8uild.js' });
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain('<div id="root">');
  });

  it('draws the login frame in the visitor’s language, with the brand HTML-escaped', async () => {
    const page = await app.inject({ url: '/login/', headers: { 'accept-language': 'fr-FR, en-GB;q=0.9, es;q=0.8' } });
    const html = page.body;
    expect(html).toContain('<html lang="en" data-session="none">');
    expect(html).toContain('<title>Sign in! / Acme &amp; &lt;Sons&gt; &quot;$&amp;&quot;</title>');
    expect(html).toContain('<h1>Sign in</h1>');
    expect(html).toContain('alt="Acme &amp; &lt;Sons&gt; &quot;$&amp;&quot;"');
    expect(html).toContain('src="/logo.svg?a=1&amp;b=&quot;2&quot;"');
    expect(html).toContain('data-captcha="altcha"');
    expect(html).toContain(`© ${new Date().getFullYear()}`);
    expect(html).not.toContain('<Sons>');
    expect(html).not.toContain('{{');
    expect(html).not.toContain('the template');
    expect(page.headers.vary).toMatch(/Accept-Language/);
  });

  it('takes ?lang= first, then the _lang cookie, then Accept-Language, then Spanish', async () => {
    const lang = async (url: string, headers: Record<string, string> = {}) =>
      /<html lang="(\w+)"/.exec((await app.inject({ url, headers })).body)?.[1];
    expect(await lang('/login/?lang=ca', { cookie: '_lang=en', 'accept-language': 'es' })).toBe('ca');
    expect(await lang('/login/', { cookie: '_lang=en', 'accept-language': 'ca' })).toBe('en');
    expect(await lang('/login/', { 'accept-language': 'de, ca-ES;q=0.5' })).toBe('ca');
    expect(await lang('/login/', { 'accept-language': 'de' })).toBe('es');
    expect(await lang('/login/?lang=xx')).toBe('es');
  });

  it('draws no frame elsewhere or with a session cookie, and no session hint with one', async () => {
    const admin = await app.inject({ url: '/admin/' });
    expect(admin.body).not.toContain('boot-shell');
    expect(admin.body).toContain('data-session="none"');
    const withSession = await app.inject({ url: '/login/', headers: { cookie: 'session=abc' } });
    expect(withSession.body).not.toContain('boot-shell');
    expect(withSession.body).not.toContain('data-session');
    expect(withSession.body).toContain('<title>Panel247</title>');
  });

  it('compresses the page when the client accepts it', async () => {
    const page = await app.inject({ url: '/login/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('boot-shell');
  });
});

describe('the page’s boot data block', () => {
  it('cannot be closed early by a value: every `<` is escaped, and the JSON reads back the same', () => {
    const boot = { language: 'es' as const, config: { company: 'Acme </script><script>alert(1)</script> <!--' } };
    const script = bootScript(boot);
    expect(script.startsWith('<script type="application/json" id="panel247-boot">')).toBe(true);
    const inside = script.slice(script.indexOf('>') + 1, script.lastIndexOf('</script>'));
    expect(inside).not.toContain('<');
    expect(JSON.parse(inside)).toEqual(boot);
  });
});

/** A drawing whose screen is `screen` (a promise: one the test settles). */
function drawn(
  screen: DrawnScreen | Promise<DrawnScreen>,
  scheme: 'light' | 'dark' = 'light',
  modules: string[] = [],
): PageDrawing {
  return { modules, drawing: { scheme, screen: Promise.resolve(screen) } };
}

describe('a page the server drew', () => {
  let dist: string;
  let app: FastifyInstance;
  let draw: () => Promise<PageDrawing>;
  const boot = { language: 'es' as const, config: {}, user: { username: 'admin' }, permissions: {} };
  /** Whether each boot data asked for was a session's (`true`) or the login page's (`false`). */
  const bootAsks: boolean[] = [];

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'panel247-web-'));
    mkdirSync(path.join(dist, '.vite'));
    mkdirSync(path.join(dist, 'server'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html lang="es"><head><title>Panel247</title><script type="module" crossorigin src="/assets/index.js"></script><link rel="modulepreload" crossorigin href="/assets/client.js"></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(path.join(dist, 'server', 'render-worker.js'), 'export const secret = 1;');
    writeFileSync(
      path.join(dist, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_client'] },
        _client: { file: 'assets/client.js' },
        'src/components/list.tsx': {
          file: 'assets/list.js',
          css: ['assets/list.css'],
          imports: ['index.html', '_shared'],
        },
        'src/app/styles.ts': { file: 'assets/styles.css' },
        _shared: { file: 'assets/shared.js', css: ['assets/list.css', 'assets/table.css'], imports: ['_client'] },
        'virtual:locale/es-areas': { file: 'assets/es-areas.js' },
      }),
    );
    app = await webApp({
      dist,
      captcha: 'none',
      bootData: async (request, page) => {
        bootAsks.push(page.session);
        if (request.cookies.session === 'user') return { ...boot };
        return page.session ? { language: 'es' } : { language: 'es', config: { company: 'Acme' } };
      },
      drawPage: async (_request, page) => {
        const drawing = await draw();
        // as a real drawing, the page carries the data its screen was drawn with
        drawing.drawing?.screen.then(
          () => {
            page.boot.queries = [{ queryKey: ['mail', 7], data: { rows: 1 } }];
          },
          () => undefined,
        );
        return drawing;
      },
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('puts the HTML in an inert #root, links the stylesheets (Mantine’s first) and carries the data it drew with', async () => {
    draw = async () => drawn({ html: '<main>rows</main>', title: null }, 'dark');
    const page = await app.inject({ url: '/admin/7/mail/', headers: { cookie: 'session=user' } });
    expect(page.body).toContain('<html lang="es" data-mantine-color-scheme="dark">');
    expect(page.body).toContain(
      '<link rel="stylesheet" href="/assets/styles.css"><link rel="stylesheet" href="/assets/list.css"><link rel="stylesheet" href="/assets/table.css"><title>Panel247</title></head>',
    );
    expect(page.body).toContain('<div id="root" data-server-drawn inert aria-disabled="true"><main>rows</main></div>');
    expect(page.body).toContain('"queries":[{"queryKey":["mail",7],"data":{"rows":1}}]');
    expect(page.headers['cache-control']).toBe('private, no-cache');
  });

  it('links the chunks of the modules the app draws or takes it over with, but for the entry’s own, and names the view’s title', async () => {
    const modules = ['src/components/list.tsx', 'virtual:locale/es-areas', 'src/unknown.tsx'];
    const chunks = ['/assets/list.js', '/assets/shared.js', '/assets/es-areas.js'];
    draw = async () => drawn({ html: '<main>rows</main>', title: 'Correo · <demo> / Acme' }, 'light', modules);
    const linksOf = (html: string) =>
      [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((link) => link[1]);
    const page = await app.inject({ url: '/admin/7/mail/', headers: { cookie: 'session=user' } });
    expect(page.body).toContain('<title>Correo · &lt;demo&gt; / Acme</title>');
    // a drawn page: no script and no link to one in its HTML; the entry's chunks and the view's
    // listed after its rows, for the script that runs the entry once they are on screen
    expect(linksOf(page.body)).toEqual([]);
    expect(page.body).not.toContain('<script type="module"');
    const listed =
      /<\/main><\/div>.*<script type="application\/json" id="panel247-preloads" data-entry="\/assets\/index.js">([^<]*)<\/script><script>/.exec(
        page.body,
      );
    expect(JSON.parse(listed?.[1] ?? 'null')).toEqual(['/assets/client.js', ...chunks]);
    // a page the app draws (a first visit) links the same code in its HTML, and no stylesheet: the app loads them
    draw = async () => ({ modules });
    const undrawn = await app.inject({ url: '/admin/7/mail/', headers: { cookie: 'session=user' } });
    expect(undrawn.body).toContain('<div id="root"></div>');
    expect(undrawn.body).toContain('<script type="module" crossorigin src="/assets/index.js"></script>');
    expect(linksOf(undrawn.body)).toEqual(['/assets/client.js', ...chunks]);
    expect(undrawn.body).not.toContain('panel247-preloads');
    expect(undrawn.body).not.toContain('stylesheet');
    expect(undrawn.body).toContain('<title>Panel247</title>');
  });

  it('sends the login page with its configuration, asking nobody’s session', async () => {
    bootAsks.length = 0;
    const login = await app.inject({ url: '/login/' });
    expect(bootAsks).toEqual([false]);
    expect(login.body).toContain(bootScript({ language: 'es', config: { company: 'Acme' } }));
    expect(login.body).toContain('<script type="module" crossorigin src="/assets/index.js"></script>');
    // elsewhere without a session cookie, nothing is asked and nothing carried
    bootAsks.length = 0;
    const admin = await app.inject({ url: '/admin/' });
    expect(bootAsks).toEqual([]);
    expect(admin.body).not.toContain('panel247-boot');
  });

  it('sends the page the app draws when drawing fails or is not asked for, and never one without a user', async () => {
    draw = async () => {
      throw new Error('the page renderer took too long');
    };
    const failed = await app.inject({ url: '/admin/', headers: { cookie: 'session=user' } });
    expect(failed.statusCode).toBe(200);
    expect(failed.body).toContain('<div id="root"></div>');
    expect(failed.body).not.toContain('stylesheet');
    let asked = false;
    draw = async () => {
      asked = true;
      return drawn({ html: '<main>rows</main>', title: null });
    };
    const signedOut = await app.inject({ url: '/admin/', headers: { cookie: 'session=gone' } });
    expect(signedOut.body).toContain('<div id="root"></div>');
    expect(asked).toBe(false);
  });

  it('sends the head before the rows are drawn, compressed, and the rest once they are', async () => {
    let finish: (screen: DrawnScreen) => void = () => undefined;
    const screen = new Promise<DrawnScreen>((resolve) => {
      finish = resolve;
    });
    draw = async () => drawn(screen, 'dark', ['src/components/list.tsx']);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetchRaw(`${address}/admin/7/mail/`, { cookie: 'session=user', 'accept-encoding': 'br' });
    expect(response.headers['content-encoding']).toBe('br');
    const text = response.pipe(createBrotliDecompress()).setEncoding('utf8');
    const parts = text[Symbol.asyncIterator]();
    const head = (await parts.next()).value as string;
    // what the browser commits the page with while the server draws: its stylesheets and scripts
    expect(head).toContain('<html lang="es" data-mantine-color-scheme="dark"><head>');
    expect(head).toContain('<link rel="stylesheet" href="/assets/styles.css">');
    expect(head).not.toContain('<title>');
    expect(head).not.toContain('modulepreload');
    expect(head).not.toContain('<script type="module"');
    finish({ html: '<main>rows</main>', title: 'Correo / Acme' });
    let rest = '';
    for (let part = await parts.next(); !part.done; part = await parts.next()) rest += part.value;
    expect(rest.startsWith('<title>Correo / Acme</title></head><body>')).toBe(true);
    expect(rest).toContain('<div id="root" data-server-drawn inert aria-disabled="true"><main>rows</main></div>');
    expect(rest).toContain('"queries":[{"queryKey":["mail",7],"data":{"rows":1}}]');
    expect(rest).toContain('panel247-preloads');
    expect(rest.endsWith('</html>')).toBe(true);
  });

  it('ends a page whose drawing failed after its head was sent as the app’s to draw', async () => {
    draw = async () =>
      drawn(Promise.reject(new Error('the page renderer took too long')), 'light', ['src/components/list.tsx']);
    const page = await app.inject({ url: '/admin/7/mail/', headers: { cookie: 'session=user' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<link rel="stylesheet" href="/assets/table.css"><title>Panel247</title></head>');
    expect(page.body).toContain('<div id="root"></div>');
    // the head linked no script: the body's end links the chunks and runs the entry
    expect(page.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/client.js"><link rel="modulepreload" crossorigin href="/assets/list.js">',
    );
    expect(page.body).toContain('<script type="module" crossorigin src="/assets/index.js"></script></body>');
    expect(page.body).not.toContain('panel247-preloads');
    expect(page.body).not.toContain('"queries"');
  });

  it('never serves the server’s renderer nor the build’s manifest', async () => {
    for (const url of ['/server/render-worker.js', '/.vite/manifest.json']) {
      const answer = await app.inject({ url });
      expect(answer.body).not.toContain('secret');
      expect(answer.body).not.toContain('assets/list.js');
    }
  });
});

describe('the view cookie’s hints', () => {
  const cookie = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  it('reads the zone, the phone layout, the scheme and a known colour', () => {
    expect(viewHintsOf(cookie({ tz: 'Europe/Madrid', phone: '1', scheme: 'dark', color: 'teal' }))).toEqual({
      timeZone: 'Europe/Madrid',
      phone: true,
      scheme: 'dark',
      color: 'teal',
    });
    expect(viewHintsOf(cookie({ tz: 'UTC', phone: 'x', scheme: '<b>', color: 'red;x' }))).toEqual({
      timeZone: 'UTC',
      phone: false,
      scheme: 'light',
      color: null,
    });
  });

  it('is nothing without a cookie, with a zone this runtime does not know, or with an oversized value', () => {
    expect(viewHintsOf(undefined)).toBeNull();
    expect(viewHintsOf(cookie({ tz: 'Mars/Olympus' }))).toBeNull();
    expect(viewHintsOf(cookie({ tz: '../../etc/passwd' }))).toBeNull();
    expect(viewHintsOf(cookie({ tz: 'UTC', color: 'x'.repeat(600) }))).toBeNull();
  });
});
