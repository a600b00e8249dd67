import { statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createWebDriver, DEFAULT_WEB_TEMPLATES } from '../../src/drivers/web/create-web-driver.ts';
import { EmbeddedWebDriver } from '../../src/drivers/web/embedded.driver.ts';
import type { WebService, WebServiceHosts } from '../../src/drivers/web/web.driver.ts';
import { hostsToRender } from '../../src/drivers/web/web-render.ts';
import { FieldErrors } from '../../src/errors.ts';
import { serviceFiles, serviceNginxConfig } from '../support/web-config.ts';

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

const options = () => ({
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

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'p247-webr-'));
  driver = new EmbeddedWebDriver(options());
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('web driver rendering (embedded)', () => {
  it('writes server blocks, SSL files, the frame page and the pool of a service', async () => {
    await driver.apply(service());
    const conf = serviceNginxConfig(live());
    expect(await readFile(live('nginx.conf'), 'utf8')).toContain(
      `include ${path.join(dir, 'web/services/7/sites')}/*.conf;`,
    );
    expect((await readdir(live('sites'))).sort()).toEqual([
      'blog.shop.test.conf',
      'go.shop.test.conf',
      'promo.shop.test.conf',
      'shop.test.conf',
    ]);
    expect(conf).toContain('server_name shop.test www.shop.test;');
    expect(conf).toContain('root /srv/www/shop.test/public;');
    expect(conf).toContain('root /srv/www/shop.test/blog/web;');
    expect(conf).toContain('fastcgi_pass unix:/run/php/p247/panel247-7.sock;');
    expect(conf).toContain(`error_log ${path.join(dir, 'logs/7/error.log')} warn;`);
    expect(conf).toContain('location = /old { return 301 "https://new.test/path?x=1"; }');
    expect(conf).toContain('location ^~ / { return 302 "http://elsewhere.test/"; }');
    expect(conf).toMatch(/listen 443 ssl;\n\s+server_name blog\.shop\.test;/);
    const certificate = /ssl_certificate (\/.+\/web\/services\/7\/ssl\/blog\.shop\.test-[0-9a-f]{16})\.crt;/.exec(conf);
    expect(certificate).not.toBeNull();
    expect(conf).not.toContain('@');

    const key = await stat(`${certificate?.[1]}.key`);
    expect(key.mode & 0o777).toBe(0o600);
    const frames = await readdir(live('frames'));
    expect(frames).toHaveLength(1);
    const frame = await readFile(live('frames', frames[0] as string), 'utf8');
    expect(frame).toContain('<title>Sale &lt;now&gt; &amp; &quot;more&quot;</title>');
    expect(frame).toContain('content="It&#39;s here"');
    expect(frame).toContain('content="a,b&lt;c&gt;"');
    expect(frame).toContain('<iframe src="https://promo.test/landing"');

    const pool = await readFile(live('php-fpm-8.2.conf'), 'utf8');
    expect(pool).toContain('[panel247-7]');
    expect(pool).toContain('listen = /run/php/p247/panel247-7.sock');
    expect(pool).toContain('php_admin_value[open_basedir] = /srv/www/shop.test/');
    expect(pool).toContain(`php_admin_value[error_log] = ${path.join(dir, 'logs/7/php-error.log')}`);
    expect(pool).toContain('pm.max_children = 5');
  });

  it("gives the pool as many PHP workers as the service's plan", async () => {
    await driver.apply(service({ phpWorkers: 12 }));
    expect(await readFile(live('php-fpm-8.2.conf'), 'utf8')).toContain('pm.max_children = 12');
  });

  it('listens at every address of the settings (IPv4 and IPv6), and refuses one that is not an address', async () => {
    const dual = new EmbeddedWebDriver({ ...options(), httpListen: '80 [::]:80', httpsListen: '443 [::]:443' });
    await dual.apply(service());
    const conf = serviceNginxConfig(live());
    expect(conf).toMatch(/listen 80;\n\s+listen \[::\]:80;\n/);
    expect(conf).toMatch(/listen 443 ssl;\n\s+listen \[::\]:443 ssl;\n/);
    const broken = new EmbeddedWebDriver({ ...options(), httpListen: '80 [::]:80;include' });
    await expect(broken.apply(service())).rejects.toThrow(FieldErrors);
  });

  it('parks every host of the service on the parking page', async () => {
    await driver.apply(service({ parking: true }));
    const conf = serviceNginxConfig(live());
    expect(conf).toContain('server_name shop.test www.shop.test blog.shop.test go.shop.test promo.shop.test;');
    expect(conf).toContain('try_files /index.html =404;');
    expect(conf).not.toContain('fastcgi_pass');
    expect(await readFile(live('parking/index.html'), 'utf8')).toContain('<h1>shop.test</h1>');
  });

  it('answers 503 with the "suspended" page on every host of a suspended service, parked or not', async () => {
    await driver.apply(service({ parking: true, suspended: true }));
    const conf = serviceNginxConfig(live());
    expect(conf).toContain('server_name shop.test www.shop.test blog.shop.test go.shop.test promo.shop.test;');
    expect(conf).toContain('return 503;');
    expect(conf).toContain('error_page 503 /suspended.html;');
    expect(conf).not.toContain('fastcgi_pass');
    expect(conf).not.toContain('try_files /index.html');
    expect(await readFile(live('suspended/suspended.html'), 'utf8')).toContain('This site is suspended.');
    // lifted: the sites again, and the page gone
    await driver.apply(service());
    expect(serviceNginxConfig(live())).toContain('fastcgi_pass');
    expect(Object.keys(serviceFiles(live())).filter((name) => name.startsWith('suspended/'))).toEqual([]);
  });

  it('keeps one folder per service; remove deletes it', async () => {
    await driver.apply(service());
    await driver.apply(service({ sites: [{ subdomain: '', folder: '' }], redirections: [] }));
    expect(await readdir(path.join(dir, 'web/services'))).toEqual(['7']);
    expect(await readdir(live('sites'))).toEqual(['shop.test.conf']);
    expect(serviceNginxConfig(live())).toContain('root /srv/www/shop.test;');
    // the certificate, key and frame page of the sites and redirections gone went with them
    expect(Object.keys(serviceFiles(live())).filter((name) => /^(ssl|frames)\//.test(name))).toEqual([]);
    await driver.remove(7);
    expect(await readdir(path.join(dir, 'web/live'))).toEqual([]);
    expect(await readdir(path.join(dir, 'web/services'))).toEqual([]);
  });

  it('a new site writes only its own file: every other file is left alone, byte for byte', async () => {
    const many = (count: number): WebService['sites'] => [
      { subdomain: '', folder: 'public' },
      ...Array.from({ length: count }, (_, i) => ({ subdomain: `s${i}`, folder: `sites/s${i}` })),
    ];
    await driver.apply(service({ sites: many(50) }));
    const before = serviceFiles(live());
    const times = new Map(Object.keys(before).map((name) => [name, statSync(live(name), { bigint: true }).mtimeNs]));
    const inodes = new Map(Object.keys(before).map((name) => [name, statSync(live(name)).ino]));
    await driver.apply(service({ sites: many(51) }));
    const after = serviceFiles(live());
    expect(Object.keys(after).filter((name) => !(name in before))).toEqual(['sites/s50.shop.test.conf']);
    expect(after['sites/s50.shop.test.conf']).toContain('root /srv/www/shop.test/sites/s50;');
    for (const [name, content] of Object.entries(before)) {
      expect(after[name], name).toBe(content);
      // not even rewritten with the same bytes
      expect(statSync(live(name), { bigint: true }).mtimeNs, name).toBe(times.get(name));
      expect(statSync(live(name)).ino, name).toBe(inodes.get(name));
    }
    // and the site's delete removes only its file
    await driver.apply(service({ sites: many(50) }));
    expect(serviceFiles(live())).toEqual(before);
  });

  it('renders again what a change touches: a folder, a new www site, a redirection, the settings', async () => {
    await driver.apply(service());
    const main = () => readFile(live('sites/shop.test.conf'), 'utf8');
    expect(await main()).toContain('server_name shop.test www.shop.test;');
    await driver.apply(service({ sites: [{ subdomain: '', folder: 'other' }] }));
    expect(await main()).toContain('root /srv/www/shop.test/other;');
    // a www site takes www.shop.test from the main site's names
    await driver.apply(
      service({
        sites: [
          { subdomain: '', folder: 'other' },
          { subdomain: 'www', folder: 'w' },
        ],
      }),
    );
    expect(await main()).toMatch(/server_name shop\.test;/);
    expect(await main()).toContain('location = /old');
    await driver.apply(service({ sites: [{ subdomain: '', folder: 'other' }], redirections: [] }));
    expect(await main()).not.toContain('location = /old');
    // a setting of the service (its home) reaches every host's file
    await driver.apply(service({ home: '/srv/www/moved', redirections: [] }));
    expect(await main()).toContain('root /srv/www/moved/public;');
    expect(await readFile(live('sites/blog.shop.test.conf'), 'utf8')).toContain('root /srv/www/moved/blog/web;');
  });

  /** The change of `hosts` as HostingChanges gives it: the whole service's rows of those hosts only. */
  const hostsOf = (whole: WebService, hosts: string[]): WebServiceHosts => ({
    ...whole,
    hosts,
    sites: whole.sites.filter((site) => hosts.includes(site.subdomain)),
    redirections: whole.redirections.filter((redirection) => hosts.includes(redirection.subdomain)),
  });

  it('a change of some hosts leaves the files the whole service would have, and writes only its own', async () => {
    let whole = service();
    await driver.apply(whole);
    const steps: [string[], (current: WebService) => WebService][] = [
      // a new site, then its folder moved, then a certificate
      [['new'], (current) => ({ ...current, sites: [...current.sites, { subdomain: 'new', folder: 'n' }] })],
      [
        ['new'],
        (current) => ({
          ...current,
          sites: current.sites.map((site) => (site.subdomain === 'new' ? { ...site, folder: 'moved' } : site)),
        }),
      ],
      // a www site takes www.shop.test from the main site (hostsToRender brings the main host in)
      [
        hostsToRender(['www']),
        (current) => ({ ...current, sites: [...current.sites, { subdomain: 'www', folder: 'w' }] }),
      ],
      // a redirection of a host without a site, then one of a site's host, then both gone
      [
        ['away'],
        (current) => ({
          ...current,
          redirections: [...current.redirections, { subdomain: 'away', path: '/', url: 'https://a.test/', type: 301 }],
        }),
      ],
      [
        ['blog'],
        (current) => ({
          ...current,
          redirections: [...current.redirections, { subdomain: 'blog', path: '/x', url: 'https://b.test/', type: 302 }],
        }),
      ],
      [
        ['away', 'blog'],
        (current) => ({
          ...current,
          redirections: current.redirections.filter((r) => r.subdomain !== 'away' && r.subdomain !== 'blog'),
        }),
      ],
      // a site deleted, and the www site again (the main site answers as www.shop.test once more)
      [['new'], (current) => ({ ...current, sites: current.sites.filter((site) => site.subdomain !== 'new') })],
      [
        hostsToRender(['www']),
        (current) => ({ ...current, sites: current.sites.filter((s) => s.subdomain !== 'www') }),
      ],
    ];
    for (const [hosts, step] of steps) {
      const before = serviceFiles(live());
      whole = step(whole);
      expect(await driver.applyHosts(hostsOf(whole, hosts)), hosts.join()).toBe(true);
      // what is live is exactly what the whole service renders
      expect(await driver.drift(whole), hosts.join()).toBeNull();
      const after = serviceFiles(live());
      const touched = Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
      for (const name of touched) {
        expect(name, hosts.join()).toMatch(/^(sites|frames|ssl)\//);
        expect(
          hosts.map((host) => (host ? `${host}.shop.test` : 'shop.test')),
          name,
        ).toContain(path.basename(name).replace(/\.conf$/, ''));
      }
    }
    expect(await main()).toContain('server_name shop.test www.shop.test;');
    async function main() {
      return readFile(live('sites/shop.test.conf'), 'utf8');
    }
  });

  it('a change of some hosts is declined (nothing written) where the whole service must be applied', async () => {
    const whole = service();
    const change = hostsOf({ ...whole, sites: [...whole.sites, { subdomain: 'new', folder: 'n' }] }, ['new']);
    // nothing applied since the driver started
    expect(await driver.applyHosts(change)).toBe(false);
    expect(await readdir(path.join(dir, 'web')).catch(() => [])).toEqual([]);
    await driver.apply(whole);
    const before = serviceFiles(live());
    // a setting every host's file names (the home), a parked service
    expect(await driver.applyHosts({ ...change, home: '/srv/www/elsewhere' })).toBe(false);
    expect(await driver.applyHosts({ ...change, parking: true })).toBe(false);
    // another writer changed the folder since this driver wrote it
    const other = new EmbeddedWebDriver(options());
    await other.apply({ ...whole, redirections: [] });
    expect(await driver.applyHosts(change)).toBe(false);
    await driver.apply(whole);
    expect(serviceFiles(live())).toEqual(before);
    // a refused change leaves no memory to build on
    const refusing = new (class extends EmbeddedWebDriver {
      refuse = false;
      protected override async check(): Promise<void> {
        if (this.refuse) throw new Error('nginx -t refused');
      }
    })(options());
    await refusing.apply(whole);
    refusing.refuse = true;
    await expect(refusing.applyHosts(change)).rejects.toThrow('nginx -t refused');
    expect(serviceFiles(live())).toEqual(before);
    refusing.refuse = false;
    expect(await refusing.applyHosts(change)).toBe(false);
    // rows of a host the change does not name are a caller's mistake
    await expect(driver.applyHosts({ ...change, hosts: ['other'] })).rejects.toThrow(/not in the change/);
    await expect(driver.applyHosts({ ...change, hosts: ['new', ''] })).rejects.toThrow(/rendered together/);
  });

  it('moves a service of the earlier layout (one file, in a version folder) on its next change', async () => {
    // the earlier layout: live/7 → versions/7.<random>/ holding one nginx.conf for every host
    const old = path.join(dir, 'web/versions/7.0123456789ab');
    await mkdir(path.join(old, 'ssl'), { recursive: true });
    await writeFile(path.join(old, 'nginx.conf'), 'server { server_name shop.test; }\n');
    await writeFile(path.join(old, 'php-fpm-8.2.conf'), '[panel247-7]\n');
    await writeFile(path.join(old, 'ssl/site-2.crt'), PEM('CERTIFICATE'));
    await mkdir(path.join(dir, 'web/live'), { recursive: true });
    await symlink(old, live());
    expect(await driver.drift(service())).toBe('changed');
    await driver.apply(service());
    expect(await readlink(live())).toBe(path.join(dir, 'web/services/7'));
    expect(await readdir(path.join(dir, 'web/versions'))).toEqual([]);
    expect(serviceNginxConfig(live())).toContain('root /srv/www/shop.test/blog/web;');
    expect(await driver.drift(service())).toBeNull();
  });

  it('a failed test leaves the earlier layout in place', async () => {
    const old = path.join(dir, 'web/versions/7.0123456789ab');
    await mkdir(old, { recursive: true });
    await writeFile(path.join(old, 'nginx.conf'), 'server { server_name shop.test; }\n');
    await mkdir(path.join(dir, 'web/live'), { recursive: true });
    await symlink(old, live());
    const refusing = new (class extends EmbeddedWebDriver {
      protected override async check(): Promise<void> {
        throw new Error('nginx -t refused');
      }
    })(options());
    await expect(refusing.apply(service())).rejects.toThrow('nginx -t refused');
    expect(await readlink(live())).toBe(old);
    expect(await readFile(path.join(old, 'nginx.conf'), 'utf8')).toBe('server { server_name shop.test; }\n');
    expect(await readdir(path.join(dir, 'web/services')).catch(() => [])).toEqual([]);
    expect(await readdir(path.join(dir, 'web/staging')).catch(() => [])).toEqual([]);
  });

  it('a refused change leaves every live file as it was, and writes nothing new', async () => {
    await driver.apply(service());
    const before = serviceFiles(live());
    const refusing = new (class extends EmbeddedWebDriver {
      protected override async check(): Promise<void> {
        throw new Error('nginx -t refused');
      }
    })(options());
    const changed = service({
      sites: [
        { subdomain: '', folder: 'other' },
        { subdomain: 'new', folder: 'new', ssl: { certPem: PEM('CERTIFICATE'), keyPem: PEM('RSA PRIVATE KEY') } },
      ],
    });
    await expect(refusing.apply(changed)).rejects.toThrow('nginx -t refused');
    expect(serviceFiles(live())).toEqual(before);
    expect(await readdir(path.join(dir, 'web/staging')).catch(() => [])).toEqual([]);
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
