import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostingService, Redirection, Subdomain } from '@panel247/contract/hosting';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { selfSignedCertificate } from '../../../../scripts/test-support/self-signed-certificate.ts';
import { ServiceHomes } from '../../src/drivers/homes/service-homes.ts';
import { EmbeddedWebDriver } from '../../src/drivers/web/embedded.driver.ts';
import { DaemonError, FieldErrors } from '../../src/errors.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { customerHome } from '../support/customer-files.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { eventually } from '../support/retrying.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';
import { serviceNginxConfig } from '../support/web-config.ts';

const DOMAIN = 'alojado.test';

interface Pair {
  cert: string;
  key: string;
}

/** Certificates made with openssl at test time: one for the domain and its subdomains, one for a stranger. */
async function certificates(dir: string): Promise<{ ours: Pair; stranger: Pair }> {
  const make = (name: string, subject: string, names: string) =>
    selfSignedCertificate({ dir, name, subject, extra: ['-addext', `subjectAltName=${names}`] });
  return {
    ours: await make('ours', `/CN=${DOMAIN}`, `DNS:${DOMAIN},DNS:*.${DOMAIN}`),
    stranger: await make('stranger', '/CN=other.test', 'DNS:other.test'),
  };
}

describe.each(DATABASE_KINDS)('hosting API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let id: number;
  let otherId: number;
  let root: string;
  let webDir: string;
  let certs: { ours: Pair; stranger: Pair };

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'p247-hosting-api-'));
    webDir = mkdtempSync(path.join(tmpdir(), 'p247-hosting-web-'));
    certs = await certificates(mkdtempSync(path.join(tmpdir(), 'p247-hosting-certs-')));
    t = await buildTestApp(kind, {
      config: {
        'hosting.root': root,
        'web.configDir': webDir,
        'web.phpSockets': { '8.2': '/run/php/panel247-8.2', '8.3': '/run/php/panel247-8.3' },
      },
    });
    account = await buildAccount(t.database.db, {
      domainName: DOMAIN,
      resources: { [DOMAIN]: { hasService: true } },
    });
    other = await buildAccount(t.database.db, { domainName: 'ajeno-web.test' });
    id = account.resources[DOMAIN] as number;
    otherId = other.resources['ajeno-web.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    // A symlink inside the home that points outside it.
    customerHome(path.join(root, DOMAIN));
    symlinkSync('/etc', path.join(root, DOMAIN, 'escape'));
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  const live = (file: string) => path.join(webDir, 'live', String(id), file);
  const nginxConf = () => serviceNginxConfig(path.join(webDir, 'live', String(id)));
  const frames = () => (existsSync(live('frames')) ? readdirSync(live('frames')) : []);
  const rows = async () => ({
    sites: await t.database.db.selectFrom('web_sites').selectAll().orderBy('id').execute(),
    redirections: await t.database.db.selectFrom('web_redirections').selectAll().orderBy('id').execute(),
    settings: await t.database.db
      .selectFrom('web_settings')
      .select(['service_id', 'php_version', 'parking'])
      .orderBy('service_id')
      .execute(),
  });
  const service = async () =>
    (await t.call<{ service: HostingService }>('GET', `service/${id}/`, {}, { cookie })).body.data.service;

  it('shows the service: usage, PHP versions, parking and permissions', async () => {
    writeFileSync(path.join(root, DOMAIN, 'index.html'), 'x'.repeat(5000));
    const data = await service();
    expect(data).toMatchObject({
      id,
      frontendDbID: id,
      defaultPHPVersion: '8.2',
      phpversion: 'default',
      phpminversion: '8.2',
      phpVersions: ['8.2', '8.3'],
      parkingActive: false,
      usage: {
        traffic: { used: 0, limit: 102_400 * 1024 * 1024 },
        BBDD: { used: 0, limit: 5 },
        spaceBbdd: { used: 0, limit: 1024 * 1024 * 1024 },
      },
    });
    expect(data.usage.spaceWeb.used).toBeGreaterThanOrEqual(5000);
    expect(data.usage.spaceWeb.limit).toBe(10_240 * 1024 * 1024);
    expect(data.permissions.service_subdomains).toBe('write');
  });

  it('changes the PHP version, and the pool follows', async () => {
    const { body } = await t.call<{ service: HostingService }>(
      'POST',
      `service/${id}/php/`,
      { phpVersion: '8.3' },
      { cookie },
    );
    expect(body.system.info).toEqual(['Versión de PHP guardada']);
    expect(body.data.service.phpversion).toBe('8.3');
    expect(existsSync(live('php-fpm-8.3.conf'))).toBe(true);
    expect(nginxConf()).toContain('/run/php/panel247-8.3/');

    const before = { rows: await rows(), conf: nginxConf() };
    for (const phpVersion of ['9.9', '8.3; x', '', '7.4']) {
      const bad = await t.call('POST', `service/${id}/php/`, { phpVersion }, { cookie });
      expect(bad.body.system.inputs).toEqual(['phpVersion']);
    }
    expect({ rows: await rows(), conf: nginxConf() }).toEqual(before);

    const back = await t.call<{ service: HostingService }>(
      'POST',
      `service/${id}/php/`,
      { phpVersion: 'default' },
      { cookie },
    );
    expect(back.body.data.service.phpversion).toBe('default');
    expect(existsSync(live('php-fpm-8.2.conf'))).toBe(true);
    expect(existsSync(live('php-fpm-8.3.conf'))).toBe(false);
  });

  it('parks the service and takes it back', async () => {
    const on = await t.call<{ service: HostingService }>('GET', `service/${id}/parking/active/`, {}, { cookie });
    expect(on.body.data.service.parkingActive).toBe(true);
    expect(on.body.system.info).toEqual(['Parking activado']);
    expect(existsSync(live('parking/index.html'))).toBe(true);
    expect(nginxConf()).toContain(path.join('parking'));
    expect(nginxConf()).not.toContain('fastcgi_pass');
    const off = await t.call<{ service: HostingService }>('GET', `service/${id}/parking/disable/`, {}, { cookie });
    expect(off.body.data.service.parkingActive).toBe(false);
    expect(existsSync(live('parking/index.html'))).toBe(false);
    expect(nginxConf()).toContain('fastcgi_pass');
  });

  it('creates, shows, edits and deletes sites; the folder reaches nginx.conf', async () => {
    const list = await t.call<{ subdomains: Subdomain[] }>('GET', `service/${id}/subdomain/list/`, {}, { cookie });
    const main = list.body.data.subdomains[0] as Subdomain;
    expect(list.body.data.subdomains).toHaveLength(1);
    expect(main).toMatchObject({ subdominio: '', directorio: '', eliminable: false, referencePunycode: DOMAIN });

    const created = await t.call<{ subdomain: Subdomain }>(
      'POST',
      `service/${id}/subdomain/create/`,
      { subDomain: 'Blog', folder: 'sites/blog/', SSLActive: '0' },
      { cookie },
    );
    expect(created.body.system.info).toEqual(['Subdominio creado']);
    const blog = created.body.data.subdomain;
    expect(blog).toMatchObject({ subdominio: 'blog', directorio: 'sites/blog', eliminable: true });
    expect(blog.ssl).toMatchObject({ enabled: false, info: null });
    expect(nginxConf()).toContain(`server_name blog.${DOMAIN};`);
    expect(nginxConf()).toContain(`root ${path.join(root, DOMAIN, 'sites/blog')};`);
    expect(existsSync(path.join(root, DOMAIN, 'sites/blog'))).toBe(true);

    const taken = await t.call('POST', `service/${id}/subdomain/create/`, { subDomain: 'blog' }, { cookie });
    expect(taken.body.system.inputs).toEqual(['subDomain']);

    const moved = await t.call<{ subdomain: Subdomain }>(
      'POST',
      `service/${id}/subdomain/${blog.id}/save/`,
      { folder: 'blog2', SSLActive: '0' },
      { cookie },
    );
    expect(moved.body.data.subdomain.directorio).toBe('blog2');
    expect(nginxConf()).toContain(`root ${path.join(root, DOMAIN, 'blog2')};`);
    expect(nginxConf()).not.toContain('sites/blog');

    const one = await t.call<{ subdomain: Subdomain }>('GET', `service/${id}/subdomain/${blog.id}/`, {}, { cookie });
    expect(one.body.data.subdomain.directorio).toBe('blog2');

    const mainDelete = await t.call('GET', `service/${id}/subdomain/${main.id}/delete/`, {}, { cookie });
    expect(mainDelete.response.statusCode).toBe(403);
    const removed = await t.call('GET', `service/${id}/subdomain/${blog.id}/delete/`, {}, { cookie });
    expect(removed.body.system.info).toEqual(['Subdominio eliminado']);
    expect(nginxConf()).not.toContain(`blog.${DOMAIN}`);
    expect((await t.call('GET', `service/${id}/subdomain/${blog.id}/`, {}, { cookie })).response.statusCode).toBe(404);
  });

  it('checks the folders a change brings in, not every site of the service at every change', async () => {
    const create = (subDomain: string) =>
      t.call<{ subdomain: Subdomain }>(
        'POST',
        `service/${id}/subdomain/create/`,
        { subDomain, folder: subDomain, SSLActive: '0', cert: '', certkey: '', certchain: '' },
        { cookie },
      );
    const first = (await create('moved')).body.data.subdomain;
    // The folder replaced behind the panel's back by a link leading out of the home.
    const folder = path.join(root, DOMAIN, 'moved');
    rmSync(folder, { recursive: true });
    symlinkSync('/etc', folder);
    const spy = vi.spyOn(ServiceHomes.prototype, 'prepare');
    // Another site's change goes through, checking only its own folder.
    const other = await create('untouched');
    expect(other.body.system.valid).toBe(true);
    expect(spy.mock.calls.map((call) => call[1])).toEqual(['untouched']);
    // A change that brings the moved folder in is refused, and the link is left to web sync to report.
    const again = await t.call(
      'POST',
      `service/${id}/subdomain/${first.id}/save/`,
      { folder: 'moved', SSLActive: '0', cert: '', certkey: '', certchain: '' },
      { cookie },
    );
    expect(again.body.system.inputs).toEqual(['folder']);
    for (const sid of [first.id, other.body.data.subdomain.id]) {
      await t.call('GET', `service/${id}/subdomain/${sid}/delete/`, {}, { cookie });
    }
    rmSync(folder);
  });

  it('installs a certificate: files for nginx, the key sealed and never sent back', async () => {
    const created = await t.call<{ subdomain: Subdomain }>(
      'POST',
      `service/${id}/subdomain/create/`,
      { subDomain: 'secure', folder: 'secure', SSLActive: '1', cert: certs.ours.cert, certkey: certs.ours.key },
      { cookie },
    );
    expect(created.body.system.valid).toBe(true);
    const site = created.body.data.subdomain;
    expect(site.ssl.enabled).toBe(true);
    expect(site.ssl.cert.key).toBe('');
    expect(site.ssl.info).toMatchObject({ names: [DOMAIN, `*.${DOMAIN}`], keyInstalled: true });
    expect(JSON.stringify(created.body)).not.toContain('PRIVATE KEY');
    expect(nginxConf()).toContain('ssl_certificate');
    const row = await t.database.db
      .selectFrom('web_sites')
      .selectAll()
      .where('id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(row.key_sealed).toMatch(/^v1\./);
    expect(row.key_sealed).not.toContain('PRIVATE');
    const keyFile = /ssl_certificate_key (\S+);/.exec(nginxConf())?.[1] ?? '';
    expect(readFileSync(keyFile, 'utf8')).toContain('PRIVATE KEY');

    // SSL stays on with the installed certificate when none is sent; turning it off drops the HTTPS block.
    const kept = await t.call<{ subdomain: Subdomain }>(
      'POST',
      `service/${id}/subdomain/${site.id}/save/`,
      { folder: 'secure', SSLActive: '1' },
      { cookie },
    );
    expect(kept.body.data.subdomain.ssl.info?.fingerprint).toBe(site.ssl.info?.fingerprint);
    const off = await t.call<{ subdomain: Subdomain }>(
      'POST',
      `service/${id}/subdomain/${site.id}/save/`,
      { folder: 'secure', SSLActive: '0' },
      { cookie },
    );
    expect(off.body.data.subdomain.ssl.enabled).toBe(false);
    expect(nginxConf()).not.toContain('ssl_certificate');
    await t.call('GET', `service/${id}/subdomain/${site.id}/delete/`, {}, { cookie });
  });

  it('creates, shows, edits and deletes redirections; Location and frames reach the files', async () => {
    const created = await t.call<{ redirection: Redirection }>(
      'POST',
      `service/${id}/redirection/create/`,
      { subDomain: 'shop', recurso: '/offers/', urlRedir: 'https://example.com/sale?x=1', redirType: '301' },
      { cookie },
    );
    expect(created.body.system.info).toEqual(['Redirección creada']);
    const redirection = created.body.data.redirection;
    expect(redirection).toMatchObject({
      origin: `shop.${DOMAIN}/offers`,
      recurso: 'offers',
      subdominio: 'shop',
      redirType: '301',
      url: 'https://example.com/sale?x=1',
      eliminable: true,
    });
    expect(nginxConf()).toContain('return 301 "https://example.com/sale?x=1";');
    expect(nginxConf()).toContain(`server_name shop.${DOMAIN};`);

    const taken = await t.call(
      'POST',
      `service/${id}/redirection/create/`,
      { subDomain: 'shop', recurso: 'offers', urlRedir: 'https://example.com/', redirType: '302' },
      { cookie },
    );
    expect(taken.body.system.inputs).toEqual(['recurso']);

    const framed = await t.call<{ redirection: Redirection }>(
      'POST',
      `service/${id}/redirection/${redirection.id}/save/`,
      {
        urlRedir: 'https://example.com/frame',
        redirType: 'frame',
        iframeTitle: 'Tienda <b>',
        iframeDescription: 'Ofertas',
        iframeKeywords: 'a, b',
      },
      { cookie },
    );
    expect(framed.body.data.redirection).toMatchObject({ redirType: 'frame', iframeTitle: 'Tienda <b>' });
    expect(frames()).toHaveLength(1);
    expect(readFileSync(live(`frames/${frames()[0]}`), 'utf8')).toContain('Tienda &lt;b&gt;');
    expect(nginxConf()).not.toContain('return 301');

    const list = await t.call<{ redirection: Redirection[] }>('GET', `service/${id}/redirection/list/`, {}, { cookie });
    expect(list.body.data.redirection.map((r) => r.id)).toEqual([redirection.id]);
    const one = await t.call<{ redirection: Redirection }>(
      'GET',
      `service/${id}/redirection/${redirection.id}/`,
      {},
      { cookie },
    );
    expect(one.body.data.redirection.url).toBe('https://example.com/frame');

    const removed = await t.call('GET', `service/${id}/redirection/${redirection.id}/delete/`, {}, { cookie });
    expect(removed.body.system.info).toEqual(['Redirección eliminada']);
    expect(nginxConf()).not.toContain(`shop.${DOMAIN}`);
    expect(frames()).toEqual([]);
  });

  const hostile = ['..', '../up', '/etc', 'a\u0000b', 'a\rb', 'a\nb', 'a;b', 'a}b', '$host', '`id`', 'x'.repeat(300)];

  it.each([
    ...hostile.map((folder) => [{ subDomain: 'ok', folder }, ['folder']] as const),
    [{ subDomain: 'ok', folder: 'escape/inside' }, ['folder']] as const,
    ...hostile.map((subDomain) => [{ subDomain, folder: 'ok' }, ['subDomain']] as const),
    [{ subDomain: '-bad', folder: 'ok' }, ['subDomain']] as const,
    [{ subDomain: 'a_b', folder: 'ok' }, ['subDomain']] as const,
    [{ subDomain: 'ok', folder: 'ok', SSLActive: '2' }, ['SSLActive']] as const,
    [{ subDomain: 'ok', folder: 'ok', SSLActive: '1' }, ['cert']] as const,
  ])('refuses the site %o and writes nothing', async (params, inputs) => {
    const before = { rows: await rows(), conf: nginxConf() };
    const { body } = await t.call('POST', `service/${id}/subdomain/create/`, params as Record<string, string>, {
      cookie,
    });
    expect(body.system.valid).toBe(false);
    expect(body.system.inputs).toEqual(inputs);
    expect({ rows: await rows(), conf: nginxConf() }).toEqual(before);
  });

  const ok = { subDomain: '', recurso: 'x', urlRedir: 'https://example.com/', redirType: '301' };
  it.each([
    ...hostile.map((subDomain) => [{ ...ok, subDomain }, ['subDomain']] as const),
    ...hostile
      .filter((value) => value !== '/etc' && value.length < 300)
      .map((recurso) => [{ ...ok, recurso }, ['recurso']] as const),
    [{ ...ok, recurso: 'r'.repeat(300) }, ['recurso']] as const,
    ...[
      'ftp://example.com/',
      'javascript:alert(1)',
      'https://',
      'example.com',
      'https://exa mple.com/',
      'https://example.com/;rm',
      'https://example.com/}',
      'https://example.com/$host',
      'https://example.com/`id`',
      'https://example.com/"q',
      'https://example.com/\r\nX: y',
      'https://user@example.com/',
      `https://example.com/${'x'.repeat(2100)}`,
      '',
    ].map((urlRedir) => [{ ...ok, urlRedir }, ['urlRedir']] as const),
    [{ ...ok, redirType: '303' }, ['redirType']] as const,
    [{ ...ok, redirType: 'frame', iframeTitle: 'a\nb' }, ['iframeTitle']] as const,
    [{ ...ok, redirType: 'frame', iframeKeywords: 'k'.repeat(600) }, ['iframeKeywords']] as const,
  ])('refuses the redirection %o and writes nothing', async (params, inputs) => {
    const before = { rows: await rows(), conf: nginxConf() };
    const { body } = await t.call('POST', `service/${id}/redirection/create/`, params as Record<string, string>, {
      cookie,
    });
    expect(body.system.valid).toBe(false);
    expect(body.system.inputs).toEqual(inputs);
    expect({ rows: await rows(), conf: nginxConf() }).toEqual(before);
  });

  it('refuses certificates that do not fit, and writes nothing', async () => {
    const site = (params: Record<string, string>) =>
      t.call(
        'POST',
        `service/${id}/subdomain/create/`,
        { subDomain: 'tls', folder: 'tls', SSLActive: '1', ...params },
        {
          cookie,
        },
      );
    const before = { rows: await rows(), conf: nginxConf() };
    const cases: [Record<string, string>, string[]][] = [
      [{ cert: certs.ours.cert, certkey: certs.stranger.key }, ['certkey']],
      [{ cert: certs.stranger.cert, certkey: certs.stranger.key }, ['cert']],
      [{ cert: 'not a certificate', certkey: certs.ours.key }, ['cert']],
      [{ cert: `${certs.ours.cert}\nserver { }`, certkey: certs.ours.key }, ['cert']],
      [{ cert: certs.ours.cert, certkey: 'nope' }, ['certkey']],
      [{ cert: certs.ours.cert, certkey: certs.ours.key, certchain: certs.stranger.cert }, ['certchain']],
      [{ cert: certs.ours.cert }, ['certkey']],
    ];
    for (const [params, inputs] of cases) {
      const { body } = await site(params);
      expect(body.system.inputs).toEqual(inputs);
    }
    expect({ rows: await rows(), conf: nginxConf() }).toEqual(before);
  });

  it('gives the web driver a site’s or a redirection’s own host, never the whole service again', async () => {
    await t.call('POST', `service/${id}/php/`, { phpVersion: 'default' }, { cookie });
    const whole = vi.spyOn(EmbeddedWebDriver.prototype, 'apply');
    const hosts = vi.spyOn(EmbeddedWebDriver.prototype, 'applyHosts');
    const created = await t.call<{ subdomain: Subdomain }>(
      'POST',
      `service/${id}/subdomain/create/`,
      { subDomain: 'solo', folder: 'solo' },
      { cookie },
    );
    expect(created.response.statusCode).toBe(200);
    const redirection = await t.call<{ redirection: Redirection }>(
      'POST',
      `service/${id}/redirection/create/`,
      { subDomain: 'solo', recurso: '/away', urlRedir: 'https://example.com/', redirType: '301' },
      { cookie },
    );
    expect(redirection.response.statusCode).toBe(200);
    await t.call('GET', `service/${id}/redirection/${redirection.body.data.redirection.id}/delete/`, {}, { cookie });
    await t.call('GET', `service/${id}/subdomain/${created.body.data.subdomain.id}/delete/`, {}, { cookie });
    expect(whole).not.toHaveBeenCalled();
    expect(hosts.mock.calls.map(([change]) => change.hosts)).toEqual([['solo'], ['solo'], ['solo'], ['solo']]);
    // each was given the rows of that host alone
    expect(hosts.mock.calls[1]?.[0].sites.map((site) => site.subdomain)).toEqual(['solo']);
    expect(hosts.mock.calls[1]?.[0].redirections.map((r) => r.path)).toEqual(['/away']);
    expect(await Promise.all(hosts.mock.results.map((result) => result.value))).toEqual([true, true, true, true]);
    expect(nginxConf()).not.toContain('solo.');
  });

  const check = () => vi.spyOn(EmbeddedWebDriver.prototype as unknown as { check: () => Promise<void> }, 'check');

  it('takes a change out again when the node refuses one of its fields', async () => {
    const before = { rows: await rows(), conf: nginxConf() };
    // A value the driver's own allow-list refuses comes back on the form's field, and the rows
    // the change wrote are taken out again (the work log's undo).
    check().mockRejectedValueOnce(FieldErrors.one('sites.1.folder', 'web.error.value'));
    const refused = await t.call(
      'POST',
      `service/${id}/subdomain/create/`,
      { subDomain: 'dv', folder: 'dv' },
      { cookie },
    );
    expect(refused.body.system.inputs).toEqual(['folder']);
    expect(refused.body.system.errors).toEqual(['Valor no permitido en la configuración del servidor web']);
    expect({ rows: await rows(), conf: nginxConf() }).toEqual(before);
    // the service is applied again as the rows now are: briefly pending on a busy machine
    await eventually(async () => (await service()).applying === null);
    expect((await service()).applying).toBeNull();
  });

  it('keeps a change the web server refuses, shows it failing, and applies it on "try again"', async () => {
    // The driver's test of the new files fails, as `nginx -t` would, for this service only.
    const failing = check().mockImplementation(async (...args: unknown[]) => {
      if ((args[0] as number[]).includes(id))
        throw new DaemonError('web.error.refused', 'nginx: [emerg] unexpected "}"');
    });
    const site = await t.call<{ subdomain: Subdomain }>(
      'POST',
      `service/${id}/subdomain/create/`,
      { subDomain: 'down', folder: 'down' },
      { cookie },
    );
    expect(site.response.statusCode).toBe(200);
    expect(site.body.system.info).toEqual([
      'Subdominio creado',
      'Hecho en el panel, pero el servidor aún no ha podido aplicarlo. Se volverá a intentar; puedes reintentarlo ahora.',
    ]);
    expect(site.body.system.job).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{32}$/), status: 'failed' });
    expect(JSON.stringify(site.body)).not.toContain('emerg');
    expect(nginxConf()).not.toContain('down.');
    // The site is the customer's (kept, listed), its service shows why it is not served yet.
    expect((await rows()).sites.map((row) => row.subdomain)).toContain('down');
    expect((await service()).applying).toMatchObject({ state: 'failing', reason: 'refused' });
    // A later change of the service waits behind it and says so.
    const php = await t.call('POST', `service/${id}/php/`, { phpVersion: '8.3' }, { cookie });
    expect(php.body.system.info).toEqual([
      'Versión de PHP guardada',
      'Hecho en el panel, pero el servidor aún no ha podido aplicarlo. Se volverá a intentar; puedes reintentarlo ahora.',
    ]);
    // Another service's changes do not wait for it.
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    const elsewhere = await t.call('GET', `service/${otherId}/parking/active/`, {}, { cookie: otherCookie });
    expect(elsewhere.body.system.job).toBeNull();
    expect(serviceNginxConfig(path.join(webDir, 'live', String(otherId)))).toContain('parking');

    failing.mockRestore();
    const retried = await t.call<{ service: HostingService }>('POST', `service/${id}/web/apply/`, {}, { cookie });
    expect(retried.body.system.info).toEqual(['Todos los cambios del servicio están aplicados en el servidor web']);
    expect(retried.body.data.service.applying).toBeNull();
    expect(nginxConf()).toContain('down.');
    expect(nginxConf()).toContain('/run/php/panel247-8.3/');
    // Nothing is left to apply, on any later call.
    const again = await t.call('POST', `service/${id}/web/apply/`, {}, { cookie });
    expect(again.body.system.info).toEqual(['Todos los cambios del servicio están aplicados en el servidor web']);
  });

  it('answers another account’s service as not found on every call', async () => {
    const calls: ['GET' | 'POST', string, Record<string, string>][] = [
      ['GET', `service/${otherId}/`, {}],
      ['POST', `service/${otherId}/php/`, { phpVersion: '8.3' }],
      ['GET', `service/${otherId}/parking/active/`, {}],
      ['GET', `service/${otherId}/parking/disable/`, {}],
      ['GET', `service/${otherId}/redirection/list/`, {}],
      ['POST', `service/${otherId}/redirection/create/`, { urlRedir: 'https://example.com/', redirType: '301' }],
      ['GET', `service/${otherId}/subdomain/list/`, {}],
      ['POST', `service/${otherId}/subdomain/create/`, { subDomain: 'x', folder: 'x' }],
    ];
    for (const [method, url, params] of calls) {
      expect((await t.call(method, url, params, { cookie })).response.statusCode, url).toBe(404);
    }
    // Ids of this service's rows under another service's id are not found either.
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    const sites = await t.call<{ subdomains: Subdomain[] }>('GET', `service/${id}/subdomain/list/`, {}, { cookie });
    const sid = (sites.body.data.subdomains[0] as Subdomain).id;
    for (const url of [
      `service/${otherId}/subdomain/${sid}/`,
      `service/${otherId}/subdomain/${sid}/delete/`,
      `service/${id}/subdomain/${sid}/`,
    ]) {
      expect((await t.call('GET', url, {}, { cookie: otherCookie })).response.statusCode, url).toBe(404);
    }
    expect(
      (await t.call('POST', `service/${otherId}/subdomain/${sid}/save/`, { folder: 'x' }, { cookie: otherCookie }))
        .response.statusCode,
    ).toBe(404);
  });

  it('follows the levels of service, service_parking, service_redirects and service_subdomains', async () => {
    const redirection = await t.call<{ redirection: Redirection }>(
      'POST',
      `service/${id}/redirection/create/`,
      { subDomain: 'perm', urlRedir: 'https://example.com/', redirType: '302' },
      { cookie },
    );
    const rid = redirection.body.data.redirection.id;
    const sites = await t.call<{ subdomains: Subdomain[] }>('GET', `service/${id}/subdomain/list/`, {}, { cookie });
    const sid = (sites.body.data.subdomains[0] as Subdomain).id;

    const reads: [string, string][] = [
      ['service', `service/${id}/`],
      ['service_redirects', `service/${id}/redirection/list/`],
      ['service_redirects', `service/${id}/redirection/${rid}/`],
      ['service_subdomains', `service/${id}/subdomain/list/`],
      ['service_subdomains', `service/${id}/subdomain/${sid}/`],
    ];
    const changes: [string, string, Record<string, string>][] = [
      ['service', `service/${id}/php/`, { phpVersion: '8.3' }],
      ['service_parking', `service/${id}/parking/active/`, {}],
      ['service_parking', `service/${id}/parking/disable/`, {}],
      ['service_redirects', `service/${id}/redirection/create/`, { urlRedir: 'https://e.com/', redirType: '301' }],
      ['service_redirects', `service/${id}/redirection/${rid}/save/`, { urlRedir: 'https://e.com/', redirType: '301' }],
      ['service_redirects', `service/${id}/redirection/${rid}/delete/`, {}],
      ['service_subdomains', `service/${id}/subdomain/create/`, { subDomain: 'p', folder: 'p' }],
      ['service_subdomains', `service/${id}/subdomain/${sid}/save/`, { folder: '' }],
      ['service_subdomains', `service/${id}/subdomain/${sid}/delete/`, {}],
    ];
    const keys = ['service', 'service_parking', 'service_redirects', 'service_subdomains'] as const;
    const before = { rows: await rows(), conf: nginxConf() };
    for (const key of keys) {
      const users: Record<string, string> = {};
      for (const level of ['disabled', 'read'] as const) {
        // Something else stays visible, so the resource itself is seen.
        const user = await buildUser(t.database.db, account, `${key.replace(/_/g, '')}-${level}`, {
          [DOMAIN]: { ...allKeys('disabled'), service_ftp: 'read', [key]: level },
        });
        users[level] = await t.login(account.domainName, user.username, user.password);
      }
      for (const [need, url] of reads) {
        if (need !== key) continue;
        expect((await t.call('POST', url, {}, { cookie: users.disabled })).response.statusCode, url).toBe(404);
        expect((await t.call('POST', url, {}, { cookie: users.read })).response.statusCode, url).toBe(200);
      }
      for (const [need, url, params] of changes) {
        if (need !== key) continue;
        expect((await t.call('POST', url, params, { cookie: users.disabled })).response.statusCode, url).toBe(404);
        expect((await t.call('POST', url, params, { cookie: users.read })).response.statusCode, url).toBe(403);
      }
    }
    expect({ rows: await rows(), conf: nginxConf() }).toEqual(before);
    await t.call('GET', `service/${id}/redirection/${rid}/delete/`, {}, { cookie });
  });

  it('gives a fresh service one main site even when its first calls come together', async () => {
    const fresh = await buildAccount(t.database.db, {
      domainName: 'nuevo-web.test',
      resources: { 'nuevo-web.test': { hasService: true } },
    });
    const freshId = fresh.resources['nuevo-web.test'] as number;
    const freshCookie = await t.login(fresh.domainName, fresh.username, fresh.password);
    const answers = await Promise.all([
      t.call('GET', `service/${freshId}/`, {}, { cookie: freshCookie }),
      t.call('GET', `service/${freshId}/subdomain/list/`, {}, { cookie: freshCookie }),
      t.call('POST', `service/${freshId}/php/`, { phpVersion: '8.3' }, { cookie: freshCookie }),
      t.call('GET', `service/${freshId}/parking/disable/`, {}, { cookie: freshCookie }),
    ]);
    expect(answers.map((answer) => answer.response.statusCode)).toEqual([200, 200, 200, 200]);
    const sites = await t.database.db.selectFrom('web_sites').selectAll().where('service_id', '=', freshId).execute();
    expect(sites.map((site) => site.subdomain)).toEqual(['']);
    expect(serviceNginxConfig(path.join(webDir, 'live', String(freshId)))).toContain(
      'server_name nuevo-web.test www.nuevo-web.test;',
    );
  });

  // Last: moves the clock past the certificates' 30 days.
  it('refuses an expired certificate', async () => {
    t.clock.advance(40 * 86_400);
    const later = await t.login(account.domainName, account.username, account.password);
    const before = { rows: await rows(), conf: nginxConf() };
    const { body } = await t.call(
      'POST',
      `service/${id}/subdomain/create/`,
      { subDomain: 'old', folder: 'old', SSLActive: '1', cert: certs.ours.cert, certkey: certs.ours.key },
      { cookie: later },
    );
    expect(body.system.inputs).toEqual(['cert']);
    expect(body.system.errors).toEqual(['El certificado ha caducado']);
    expect({ rows: await rows(), conf: nginxConf() }).toEqual(before);
  });
});
