import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createWebDriver, DEFAULT_WEB_TEMPLATES } from '../../src/drivers/web/create-web-driver.ts';
import { EmbeddedWebDriver } from '../../src/drivers/web/embedded.driver.ts';
import type { WebService } from '../../src/drivers/web/web.driver.ts';
import { FieldErrors } from '../../src/errors.ts';

const PEM = (label: string) => `-----BEGIN ${label}-----\nQUJD\n-----END ${label}-----\n`;

let dir: string;
let driver: EmbeddedWebDriver;

function service(overrides: Partial<WebService> = {}): WebService {
  return {
    serviceId: 7,
    domain: 'shop.test',
    home: '/srv/www/shop.test',
    phpVersion: '8.2',
    parking: false,
    sites: [
      { subdomain: '', folder: 'public' },
      { subdomain: 'blog', folder: 'blog/web', ssl: { certPem: PEM('CERTIFICATE'), keyPem: PEM('PRIVATE KEY') } },
    ],
    redirections: [
      { subdomain: '', path: '/old', url: 'https://new.test/path?x=1', type: 301 },
      { subdomain: 'go', path: '/', url: 'http://elsewhere.test/', type: 302 },
      {
        subdomain: 'promo',
        path: '/',
        url: 'https://promo.test/landing',
        type: 'frame',
        frame: { title: 'Sale <now> & "more"', description: "It's here", keywords: 'a,b<c>' },
      },
    ],
    ...overrides,
  };
}

const live = (...parts: string[]) => path.join(dir, 'web/live/7', ...parts);

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'p247-webr-'));
  driver = new EmbeddedWebDriver({
    configDir: path.join(dir, 'web'),
    templatesDir: DEFAULT_WEB_TEMPLATES,
    logDir: path.join(dir, 'logs'),
    httpListen: '80',
    httpsListen: '443',
    phpSockets: { '8.2': '/run/php/p247' },
    phpUser: 'www-data',
    phpGroup: 'www-data',
    nginxUser: 'www-data',
    acmeChallengeDir: '/var/lib/panel247/acme-challenges',
  });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('web driver rendering (embedded)', () => {
  it('writes server blocks, SSL files, the frame page and the pool of a service', async () => {
    await driver.apply(service());
    const conf = await readFile(live('nginx.conf'), 'utf8');
    expect(conf).toContain('server_name shop.test www.shop.test;');
    expect(conf).toContain('root /srv/www/shop.test/public;');
    expect(conf).toContain('root /srv/www/shop.test/blog/web;');
    expect(conf).toContain('fastcgi_pass unix:/run/php/p247/panel247-7.sock;');
    expect(conf).toContain(`error_log ${path.join(dir, 'logs/7/error.log')} warn;`);
    expect(conf).toContain('location = /old { return 301 "https://new.test/path?x=1"; }');
    expect(conf).toContain('location ^~ / { return 302 "http://elsewhere.test/"; }');
    expect(conf).toMatch(/listen 443 ssl;\n\s+server_name blog\.shop\.test;/);
    expect(conf).toMatch(/ssl_certificate \/.+\/web\/versions\/7\.[0-9a-f]+\/ssl\/site-2\.crt;/);
    expect(conf).not.toContain('@');

    const key = await stat(live('ssl/site-2.key'));
    expect(key.mode & 0o777).toBe(0o600);
    const frame = await readFile(live('frames/frame-1.html'), 'utf8');
    expect(frame).toContain('<title>Sale &lt;now&gt; &amp; &quot;more&quot;</title>');
    expect(frame).toContain('content="It&#39;s here"');
    expect(frame).toContain('content="a,b&lt;c&gt;"');
    expect(frame).toContain('<iframe src="https://promo.test/landing"');

    const pool = await readFile(live('php-fpm-8.2.conf'), 'utf8');
    expect(pool).toContain('[panel247-7]');
    expect(pool).toContain('listen = /run/php/p247/panel247-7.sock');
    expect(pool).toContain('php_admin_value[open_basedir] = /srv/www/shop.test/');
    expect(pool).toContain(`php_admin_value[error_log] = ${path.join(dir, 'logs/7/php-error.log')}`);
  });

  it('parks every host of the service on the parking page', async () => {
    await driver.apply(service({ parking: true }));
    const conf = await readFile(live('nginx.conf'), 'utf8');
    expect(conf).toContain('server_name shop.test www.shop.test blog.shop.test go.shop.test promo.shop.test;');
    expect(conf).toContain('try_files /index.html =404;');
    expect(conf).not.toContain('fastcgi_pass');
    expect(await readFile(live('parking/index.html'), 'utf8')).toContain('<h1>shop.test</h1>');
  });

  it('swaps versions: one live version, the previous one removed; remove deletes the service', async () => {
    await driver.apply(service());
    await driver.apply(service({ sites: [{ subdomain: '', folder: '' }], redirections: [] }));
    expect(await readdir(path.join(dir, 'web/versions'))).toHaveLength(1);
    expect(await readFile(live('nginx.conf'), 'utf8')).toContain('root /srv/www/shop.test;');
    await driver.remove(7);
    expect(await readdir(path.join(dir, 'web/live'))).toEqual([]);
    expect(await readdir(path.join(dir, 'web/versions'))).toEqual([]);
  });

  const hostile: Array<[string, Partial<WebService>]> = [
    ['domain with ;', { domain: 'shop.test;' }],
    ['domain with }', { domain: 'shop}.test' }],
    ['subdomain with newline', { sites: [{ subdomain: 'a\nb', folder: '' }] }],
    ['folder with ..', { sites: [{ subdomain: '', folder: '../etc' }] }],
    ['home with ..', { home: '/srv/www/../etc' }],
    ['home with space', { home: '/srv/www/a b' }],
    ['url with $host', { redirections: [{ subdomain: '', path: '/', url: 'https://$host/', type: 301 }] }],
    ['url with quote', { redirections: [{ subdomain: '', path: '/', url: 'https://a.test/"', type: 302 }] }],
    ['url with ;', { redirections: [{ subdomain: '', path: '/', url: 'https://a.test/;x', type: 302 }] }],
    ['path with }', { redirections: [{ subdomain: '', path: '/a}', url: 'https://a.test/', type: 302 }] }],
    ['javascript url', { redirections: [{ subdomain: '', path: '/', url: 'javascript:alert(1)', type: 302 }] }],
    [
      'frame title with CR',
      {
        redirections: [
          {
            subdomain: '',
            path: '/',
            url: 'https://a.test/',
            type: 'frame',
            frame: { title: 'a\rb', description: '', keywords: '' },
          },
        ],
      },
    ],
    [
      'certificate with config',
      { sites: [{ subdomain: '', folder: '', ssl: { certPem: 'x; }', keyPem: PEM('PRIVATE KEY') } }] },
    ],
    ['unknown PHP version', { phpVersion: '7.4' }],
  ];
  it.each(hostile)('refuses %s before writing anything', async (_name, overrides) => {
    await expect(driver.apply(service(overrides))).rejects.toBeInstanceOf(FieldErrors);
    expect(await readdir(path.join(dir, 'web')).catch(() => [])).toEqual([]);
  });

  it('is the default driver, writing under <dataDir>/web', () => {
    const config = loadConfig({ PANEL_DATA_DIR: dir });
    expect(config.web.configDir).toBe(path.join(dir, 'web'));
    expect(createWebDriver(config).kind).toBe('embedded');
    const nginx = loadConfig({ PANEL_WEB_DRIVER: 'nginx', PANEL_WEB_PHP_SOCKETS: '8.2=/run/a,8.3=/run/b' });
    expect(nginx.web.phpSockets).toEqual({ '8.2': '/run/a', '8.3': '/run/b' });
    expect(createWebDriver(nginx).kind).toBe('nginx');
    expect(() => loadConfig({ PANEL_WEB_PHP_SOCKETS: '8.2=/run/a b' })).toThrow(/phpSockets/);
    expect(() => loadConfig({ PANEL_WEB_DEFAULT_PHP_VERSION: '8.3' })).toThrow(/defaultPhpVersion/);
  });
});

describe('web driver drift (what web sync compares)', () => {
  it('a service as applied has no drift; a missing link is missing; an edited or extra file is changed', async () => {
    expect(await driver.drift(service())).toBe('missing');
    expect(await driver.liveServices()).toEqual([]);
    await driver.apply(service());
    expect(await driver.liveServices()).toEqual([7]);
    expect(await driver.drift(service())).toBeNull();
    // the panel's side changed: a redirection fewer
    expect(await driver.drift(service({ redirections: [] }))).toBe('changed');
    // the server's side changed by hand: an edited file, then a file more
    const conf = live('nginx.conf');
    await writeFile(conf, `${await readFile(conf, 'utf8')}# edited\n`);
    expect(await driver.drift(service())).toBe('changed');
    await driver.apply(service());
    expect(await driver.drift(service())).toBeNull();
    await writeFile(live('extra.conf'), 'server {}\n');
    expect(await driver.drift(service())).toBe('changed');
    await driver.remove(7);
    expect(await driver.drift(service())).toBe('missing');
    expect(await driver.liveServices()).toEqual([]);
  });
});
