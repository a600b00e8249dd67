import { X509Certificate } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServers, type WebServers } from '../../../../scripts/daemons/web.ts';
import { selfSignedCertificate } from '../../../../scripts/test-support/self-signed-certificate.ts';
import { NginxWebDriver } from '../../src/drivers/web/nginx.driver.ts';
import type { WebService } from '../../src/drivers/web/web.driver.ts';
import { DaemonError, FieldErrors } from '../../src/errors.ts';
import { serviceFiles } from '../support/web-config.ts';

interface Answer {
  status: number;
  location?: string;
  body: string;
}

describe('web driver on a real nginx and PHP-FPM 8.2', () => {
  let servers: WebServers;
  let driver: NginxWebDriver;
  let home: string;
  let parkedHome: string;
  let cert: string;
  let key: string;

  const get = (host: string, urlPath = '/'): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const request = http.get(
        { host: '127.0.0.1', port: servers.httpPort, path: urlPath, headers: { host }, agent: false },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, location: response.headers.location, body }),
          );
        },
      );
      request.on('error', reject);
    });

  /** nginx applies a reload in the background: ask again until the answer is the expected one. */
  const eventually = async (host: string, urlPath: string, expected: (answer: Answer) => boolean) => {
    const until = Date.now() + 15_000;
    let last: Answer | Error = new Error('no answer');
    while (Date.now() < until) {
      last = await get(host, urlPath).catch((error: Error) => error);
      if (!(last instanceof Error) && expected(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(
      `${host}${urlPath}: ${last instanceof Error ? last.message : JSON.stringify(last)}\n${servers.logs()}`,
    );
  };

  const shop = (overrides: Partial<WebService> = {}): WebService => ({
    serviceId: 1,
    domain: 'shop.test',
    home,
    phpVersion: '8.2',
    parking: false,
    sites: [
      { subdomain: '', folder: 'public' },
      { subdomain: 'blog', folder: 'blog/web' },
      { subdomain: 'secure', folder: 'public', ssl: { certPem: cert, keyPem: key } },
    ],
    redirections: [
      { subdomain: '', path: '/old', url: 'https://new.test/target?x=1', type: 301 },
      { subdomain: 'go', path: '/', url: 'http://elsewhere.test/', type: 302 },
      {
        subdomain: 'promo',
        path: '/',
        url: 'https://promo.test/landing',
        type: 'frame',
        frame: { title: 'Sale <now> & "more"', description: "It's <b>here</b>", keywords: 'a,b<c>' },
      },
    ],
    ...overrides,
  });

  const write = (file: string, content: string) => {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    writeFileSync(file, content);
    chmodSync(file, 0o644);
  };

  beforeAll(async () => {
    servers = await startWebServers();
    driver = new NginxWebDriver(servers.driverOptions);
    home = path.join(servers.dir, 'homes/shop.test');
    parkedHome = path.join(servers.dir, 'homes/parked.test');
    write(path.join(home, 'public/index.html'), 'main site\n');
    write(path.join(home, 'blog/web/index.html'), 'blog site\n');
    write(
      path.join(home, 'public/calc.php'),
      `<?php echo 'sum=', 6 * 7, ';sapi=', PHP_SAPI, ';basedir=', ini_get('open_basedir'), ';outside=', var_export(@file_get_contents('/etc/hostname') !== false, true);\n`,
    );
    write(
      path.join(home, 'public/fail.php'),
      `<?php trigger_error('p247-marker-' . $_GET['n'], E_USER_WARNING); echo 'done';\n`,
    );
    mkdirSync(parkedHome, { recursive: true, mode: 0o755 });
    for (const folder of ['homes', 'homes/shop.test', 'homes/shop.test/blog'])
      chmodSync(path.join(servers.dir, folder), 0o755);
    ({ cert, key } = await selfSignedCertificate({
      dir: servers.dir,
      name: 'secure',
      subject: '/CN=secure.shop.test',
      days: 5,
    }));
    await driver.apply(shop()).catch((error: DaemonError) => {
      throw new Error(`${error.message}: ${error.detail}\n${servers.logs()}`);
    });
  });
  afterAll(async () => {
    await servers?.stop();
  });

  it('serves a new site from its folder, and a subdomain site from its own', async () => {
    expect((await eventually('shop.test', '/', (a) => a.status === 200)).body).toBe('main site\n');
    expect((await eventually('www.shop.test', '/', (a) => a.status === 200)).body).toBe('main site\n');
    expect((await eventually('blog.shop.test', '/', (a) => a.status === 200)).body).toBe('blog site\n');
  });

  it('runs PHP through the service’s own pool, inside its home', async () => {
    const answer = await eventually('shop.test', '/calc.php', (a) => a.status === 200);
    // The pool's own session/upload folder is the one place outside the home it may use.
    const tmp = path.join(servers.driverOptions.logDir, '1', 'tmp');
    expect(answer.body).toBe(`sum=42;sapi=fpm-fcgi;basedir=${home}/:${tmp}/;outside=false`);
    expect(readdirSync(path.join(servers.dir, 'run'))).toContain('panel247-1.sock');
  });

  it('serves a change as soon as apply answers: the reload has taken effect, no retry needed', async () => {
    for (let round = 1; round <= 5; round++) {
      const url = `https://moved.test/round-${round}`;
      const redirections = [...shop().redirections, { subdomain: '', path: '/moving', url, type: 301 as const }];
      await driver.apply(shop({ redirections }));
      // one request, at once: the old workers no longer accept, the new ones have the change
      const answer = await get('shop.test', '/moving');
      expect([answer.status, answer.location]).toEqual([301, url]);
    }
    await driver.apply(shop());
  });

  it('answers 301 and 302 redirections with their Location', async () => {
    const permanent = await eventually('shop.test', '/old', (a) => a.status === 301);
    expect(permanent.location).toBe('https://new.test/target?x=1');
    expect((await get('shop.test', '/old/deeper')).status).toBe(301);
    const temporary = await eventually('go.shop.test', '/anything', (a) => a.status === 302);
    expect(temporary.location).toBe('http://elsewhere.test/');
  });

  it('serves a frame redirection as an iframe page with escaped meta data', async () => {
    const page = await eventually('promo.shop.test', '/', (a) => a.status === 200);
    expect(page.body).toContain('<title>Sale &lt;now&gt; &amp; &quot;more&quot;</title>');
    expect(page.body).toContain('<meta name="description" content="It&#39;s &lt;b&gt;here&lt;/b&gt;">');
    expect(page.body).toContain('<meta name="keywords" content="a,b&lt;c&gt;">');
    expect(page.body).toContain('<iframe src="https://promo.test/landing"');
  });

  it('presents the uploaded certificate over TLS for the site’s name (SNI)', async () => {
    const expected = new X509Certificate(cert).fingerprint256;
    const presented = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect(
        { host: '127.0.0.1', port: servers.httpsPort, servername: 'secure.shop.test', rejectUnauthorized: false },
        () => {
          resolve(socket.getPeerCertificate().fingerprint256);
          socket.end();
        },
      );
      socket.on('error', reject);
    });
    expect(presented).toBe(expected);
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get(
          {
            host: '127.0.0.1',
            port: servers.httpsPort,
            servername: 'secure.shop.test',
            headers: { host: 'secure.shop.test' },
            ca: cert,
            checkServerIdentity: () => undefined,
            agent: false,
          },
          (response) => {
            let text = '';
            response.on('data', (chunk) => (text += chunk));
            response.on('end', () => resolve(text));
          },
        )
        .on('error', reject);
    });
    expect(body).toBe('main site\n');
  });

  it('writes a PHP error into the service’s own error log', async () => {
    const marker = String(process.pid);
    expect((await eventually('shop.test', `/fail.php?n=${marker}`, (a) => a.status === 200)).body).toBe('done');
    const log = path.join(servers.driverOptions.logDir, '1/php-error.log');
    const until = Date.now() + 15_000;
    while (!readFileSync(log, 'utf8').includes(`p247-marker-${marker}`) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(readFileSync(log, 'utf8')).toContain(`p247-marker-${marker}`);
  });

  /** A parked service of several hosts (a site, a redirection). */
  const parked = (): WebService => ({
    serviceId: 2,
    domain: 'parked.test',
    home: parkedHome,
    phpVersion: '8.2',
    parking: true,
    sites: [{ subdomain: 'shop', folder: '' }],
    redirections: [{ subdomain: 'go', path: '/', url: 'https://x.test/', type: 301 }],
  });

  it('parks every host of a parked service on the parking page', async () => {
    await driver.apply(parked());
    for (const host of ['parked.test', 'www.parked.test', 'shop.parked.test', 'go.parked.test']) {
      const page = await eventually(host, '/some/page', (a) => a.status === 200);
      expect(page.body).toContain('<h1>parked.test</h1>');
    }
    // the other service is untouched
    expect((await get('shop.test', '/')).body).toBe('main site\n');
  });

  it('answers 503 with the "suspended" page on every host of a suspended service, and serves it again once lifted', async () => {
    await driver.apply({ ...parked(), suspended: true });
    for (const host of ['parked.test', 'www.parked.test', 'shop.parked.test', 'go.parked.test']) {
      const page = await eventually(host, '/index.php', (a) => a.status === 503);
      expect(page.body).toContain('This site is suspended.');
    }
    await driver.apply(parked());
    expect((await eventually('shop.parked.test', '/', (a) => a.status === 200)).body).toContain('<h1>parked.test</h1>');
  });

  it('serves an ACME HTTP-01 token for every host, before its redirections and its parking page', async () => {
    const tokens = path.join(servers.driverOptions.acmeChallengeDir, '.well-known', 'acme-challenge');
    mkdirSync(tokens, { recursive: true, mode: 0o755 });
    chmodSync(servers.driverOptions.acmeChallengeDir, 0o755);
    write(path.join(tokens, 'tok-EN_1'), 'tok-EN_1.thumbprint');
    // a site, a host whose every path redirects, a parked host
    for (const host of ['shop.test', 'go.shop.test', 'shop.parked.test']) {
      const answer = await eventually(host, '/.well-known/acme-challenge/tok-EN_1', (a) => a.status === 200);
      expect(answer.body).toBe('tok-EN_1.thumbprint');
    }
    expect((await get('shop.test', '/.well-known/acme-challenge/other')).status).toBe(404);
    expect((await get('shop.test', '/.well-known/acme-challenge/../../etc/passwd')).status).not.toBe(200);
  });

  const liveTarget = () => readlinkSync(path.join(servers.driverOptions.configDir, 'live/1'));
  /** Where the live link points, and every file of the service byte for byte. */
  const state = () => ({
    target: liveTarget(),
    files: serviceFiles(path.join(servers.driverOptions.configDir, 'live/1')),
  });
  const services = () => readdirSync(path.join(servers.driverOptions.configDir, 'services')).sort();

  it('adds a site by writing its own file alone, served after one reload; the other files stay as they were', async () => {
    const live = path.join(servers.driverOptions.configDir, 'live/1');
    const before = serviceFiles(live);
    const times = Object.fromEntries(
      Object.keys(before).map((name) => [name, statSync(path.join(live, name), { bigint: true }).mtimeNs]),
    );
    write(path.join(home, 'extra/index.html'), 'extra site\n');
    await driver.apply(shop({ sites: [...shop().sites, { subdomain: 'extra', folder: 'extra' }] }));
    // served at once: apply answers once nginx's new workers accept
    expect((await get('extra.shop.test', '/')).body).toBe('extra site\n');
    const after = serviceFiles(live);
    expect(Object.keys(after).filter((name) => !(name in before))).toEqual(['sites/extra.shop.test.conf']);
    for (const name of Object.keys(before)) {
      expect(after[name], name).toBe(before[name]);
      expect(statSync(path.join(live, name), { bigint: true }).mtimeNs, name).toBe(times[name]);
    }
    // its removal takes its file away, and the host is no longer served by the service
    await driver.apply(shop());
    expect(serviceFiles(live)).toEqual(before);
    const gone = await get('extra.shop.test', '/').then(
      (answer) => answer.body,
      () => 'no answer',
    );
    expect(gone).not.toBe('extra site\n');
    expect((await get('blog.shop.test', '/')).body).toBe('blog site\n');
  });

  it('applies a change of one host alone: served at once, the whole service as rendered; a refusal changes nothing', async () => {
    const before = state();
    write(path.join(home, 'solo/index.html'), 'solo site\n');
    const solo = { subdomain: 'solo', folder: 'solo' };
    const withSolo = shop({ sites: [...shop().sites, solo] });
    const onlySolo = (sites: WebService['sites']) => ({ ...shop(), hosts: ['solo'], sites, redirections: [] });
    expect(await driver.applyHosts(onlySolo([solo]))).toBe(true);
    expect((await get('solo.shop.test', '/')).body).toBe('solo site\n');
    expect((await get('blog.shop.test', '/')).body).toBe('blog site\n');
    expect(await driver.drift(withSolo)).toBeNull();
    // a certificate nginx cannot load: refused by nginx -t, and every file stays as it was
    const garbage = '-----BEGIN CERTIFICATE-----\nQUJDRA==\n-----END CERTIFICATE-----\n';
    const failure = await driver
      .applyHosts(onlySolo([{ ...solo, ssl: { certPem: garbage, keyPem: key } }]))
      .catch((error) => error);
    expect(failure).toBeInstanceOf(DaemonError);
    expect(await driver.drift(withSolo)).toBeNull();
    expect((await get('solo.shop.test', '/')).body).toBe('solo site\n');
    // after a refusal the driver asks for the whole service once
    expect(await driver.applyHosts(onlySolo([]))).toBe(false);
    await driver.apply(shop());
    expect(state()).toEqual(before);
  });

  it('keeps the previous configuration serving when nginx refuses a broken template', async () => {
    const before = state();
    const broken = path.join(servers.dir, 'broken-templates');
    cpSync(servers.driverOptions.templatesDir, broken, { recursive: true });
    const template = path.join(broken, 'server.conf.template');
    writeFileSync(template, readFileSync(template, 'utf8').replace('server {', 'server {\n    no_such_directive on;'));
    const brokenDriver = new NginxWebDriver({ ...servers.driverOptions, templatesDir: broken });
    const failure = await brokenDriver.apply(shop({ sites: [{ subdomain: '', folder: 'blog/web' }] })).catch((e) => e);
    expect(failure).toBeInstanceOf(DaemonError);
    expect((failure as DaemonError).messageKey).toBe('web.error.refused');
    expect((failure as DaemonError).detail).toContain('no_such_directive');
    expect(state()).toEqual(before);
    expect((await get('shop.test', '/')).body).toBe('main site\n');
  });

  it('keeps the previous configuration serving when nginx refuses an input (a certificate it cannot load)', async () => {
    const before = state();
    const garbage = '-----BEGIN CERTIFICATE-----\nQUJDRA==\n-----END CERTIFICATE-----\n';
    const failure = await driver
      .apply(shop({ sites: [{ subdomain: '', folder: 'blog/web', ssl: { certPem: garbage, keyPem: key } }] }))
      .catch((e) => e);
    expect(failure).toBeInstanceOf(DaemonError);
    expect((failure as DaemonError).detail).toMatch(/nginx -t:.*(PEM|certificate)/s);
    expect(state()).toEqual(before);
    expect((await get('shop.test', '/')).body).toBe('main site\n');
  });

  it('puts the previous files back when a reload fails after the swap', async () => {
    const before = state();
    const php = servers.driverOptions.php['8.2'];
    if (!php) throw new Error('no PHP 8.2 master');
    const failing = new NginxWebDriver({
      ...servers.driverOptions,
      php: { '8.2': { ...php, reloadCommand: ['false'] } },
    });
    // another home changes the pool too, so PHP-FPM is reloaded (and fails) before nginx
    const failure = await failing
      .apply(shop({ home: parkedHome, sites: [{ subdomain: '', folder: '' }] }))
      .catch((e) => e);
    expect(failure).toBeInstanceOf(DaemonError);
    expect((failure as DaemonError).messageKey).toBe('web.error.reload');
    expect(state()).toEqual(before);
    expect((await get('shop.test', '/')).body).toBe('main site\n');
  });

  const hostile: Array<[string, Partial<WebService>]> = [
    ['a ; in the domain', { domain: 'shop.test;' }],
    ['a } in a subdomain', { sites: [{ subdomain: 'a}', folder: '' }] }],
    ['a newline in a folder', { sites: [{ subdomain: '', folder: 'public\nroot /' }] }],
    ['$host in a URL', { redirections: [{ subdomain: '', path: '/', url: 'https://$host/', type: 301 }] }],
    ['../ in a folder', { sites: [{ subdomain: '', folder: '../../etc' }] }],
    ['../ in the home', { home: '/tmp/homes/../../etc' }],
  ];
  it.each(hostile)('refuses %s before anything is written', async (_name, overrides) => {
    const before = state();
    await expect(driver.apply(shop(overrides))).rejects.toBeInstanceOf(FieldErrors);
    expect(state()).toEqual(before);
    expect((await get('shop.test', '/')).body).toBe('main site\n');
  });

  it('applies many services together (a sync); a batch nginx refuses is applied one by one: the bad one named, the others served', async () => {
    const garbage = '-----BEGIN CERTIFICATE-----\nQUJDRA==\n-----END CERTIFICATE-----\n';
    const one = (serviceId: number, domain: string, ssl?: { certPem: string; keyPem: string }) =>
      shop({
        serviceId,
        domain,
        sites: [{ subdomain: '', folder: 'public', ...(ssl ? { ssl } : {}) }],
        redirections: [],
      });
    const together = await driver.applyMany([one(11, 'many1.test'), one(12, 'many2.test')]);
    expect(together).toEqual(new Map());
    for (const host of ['many1.test', 'many2.test'])
      expect((await eventually(host, '/', (a) => a.status === 200)).body).toBe('main site\n');
    const failures = await driver.applyMany([
      one(11, 'many1.test'),
      one(13, 'many3.test', { certPem: garbage, keyPem: key }),
      one(12, 'many2b.test'),
    ]);
    expect([...failures.keys()]).toEqual([13]);
    expect((failures.get(13) as DaemonError).detail).toMatch(/nginx -t:.*(PEM|certificate)/s);
    expect((await eventually('many2b.test', '/', (a) => a.status === 200)).body).toBe('main site\n');
    expect((await get('many1.test', '/')).body).toBe('main site\n');
    expect(services()).not.toContain('13');
    await driver.remove(11);
    await driver.remove(12);
  });

  it('applies a change, and removes a service so its hosts are no longer served', async () => {
    await driver.apply(shop({ sites: [{ subdomain: '', folder: 'blog/web' }], redirections: [] }));
    await eventually('shop.test', '/', (a) => a.body === 'blog site\n');
    expect(services()).toEqual(['1', '2']);
    await driver.remove(2);
    const until = Date.now() + 15_000;
    let answer: Answer | Error = await get('parked.test', '/').catch((error: Error) => error);
    while (!(answer instanceof Error) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await get('parked.test', '/').catch((error: Error) => error);
    }
    // the default server closes the connection without an answer (444)
    expect(answer).toBeInstanceOf(Error);
    expect(services()).toEqual(['1']);
  });
});
