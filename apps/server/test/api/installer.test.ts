import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGzip } from 'node:zlib';
import type { HostedDatabase } from '@panel247/contract/databases';
import type { Subdomain } from '@panel247/contract/hosting';
import type { HostingApplication, InstallJob } from '@panel247/contract/installer';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const DOMAIN = 'instala.test';
/** A title that would break out of a PHP string, a JSON string or HTML if it were not escaped. */
const HOSTILE_TITLE = `It's "mine" \\' </title><script>x()</script> ${'$'}{x}`;

type Answer = Record<string, string>;

/** Writes a .tar.gz with the given entries (tar-stream, the same parser the panel reads with). */
async function writeArchive(
  file: string,
  entries: { name: string; type?: 'file' | 'directory' | 'symlink'; body?: string; linkname?: string }[],
) {
  const archive = pack();
  for (const entry of entries) {
    if (entry.type === 'symlink') archive.entry({ name: entry.name, type: 'symlink', linkname: entry.linkname });
    else if (entry.type === 'directory') archive.entry({ name: entry.name, type: 'directory' });
    else archive.entry({ name: entry.name }, entry.body ?? '');
  }
  archive.finalize();
  const { createWriteStream } = await import('node:fs');
  const { pipeline } = await import('node:stream/promises');
  await pipeline(archive, createGzip(), createWriteStream(file));
}

function manifest(id: number, softName: string, payload: string, extra: object = {}) {
  return JSON.stringify({
    id,
    softName,
    fullName: softName,
    version: '1.0',
    description: 'test',
    category: 'others',
    type: 'php',
    payload,
    logo: 'logo.svg',
    configFiles: [{ template: 'settings.template', target: 'settings.php', syntax: 'php' }],
    sections: [{ title: 'Main', inputs: [{ name: 'title', label: 'Title', type: 'text', required: true }] }],
    ...extra,
  });
}

/** A catalogue of tar.gz packages: one good, several that try to escape their folder. */
async function archiveCatalogue(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-apps-'));
  const add = async (name: string, id: number, entries: Parameters<typeof writeArchive>[1]) => {
    const folder = path.join(dir, name);
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'manifest.json'), manifest(id, name, 'files.tar.gz'));
    writeFileSync(path.join(folder, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(path.join(folder, 'settings.template'), "<?php\nconst TITLE = '{{ cfg.title }}';\n");
    await writeArchive(path.join(folder, 'files.tar.gz'), entries);
  };
  await add('packed', 10, [
    { name: './', type: 'directory' },
    { name: './index.php', body: '<?php echo "packed";\n' },
    { name: './lib/', type: 'directory' },
    { name: './lib/util.php', body: '<?php\n' },
  ]);
  await add('dotdot', 11, [{ name: '../escaped.php', body: 'x' }]);
  await add('absolute', 12, [{ name: '/tmp/p247-absolute.php', body: 'x' }]);
  await add('symlink', 13, [{ name: 'link', type: 'symlink', linkname: '/etc/passwd' }]);
  // A package whose template names something no input fills.
  const bad = path.join(dir, 'badtemplate');
  mkdirSync(bad);
  mkdirSync(path.join(bad, 'files'));
  writeFileSync(path.join(bad, 'manifest.json'), manifest(14, 'badtemplate', 'files'));
  writeFileSync(path.join(bad, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(bad, 'settings.template'), "<?php\nconst X = '{{ cfg.nothing }}';\n");
  return dir;
}

describe.each(DATABASE_KINDS)('application installer API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let id: number;
  let otherId: number;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'p247-installer-'));
    t = await buildTestApp(kind, {
      config: { 'hosting.root': root, 'web.configDir': mkdtempSync(path.join(tmpdir(), 'p247-installer-web-')) },
    });
    account = await buildAccount(t.database.db, { domainName: DOMAIN, resources: { [DOMAIN]: { hasService: true } } });
    other = await buildAccount(t.database.db, {
      domainName: 'ajeno-apps.test',
      resources: { 'ajeno-apps.test': { hasService: true } },
    });
    id = account.resources[DOMAIN] as number;
    otherId = other.resources['ajeno-apps.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  const home = (...parts: string[]) => path.join(root, DOMAIN, ...parts);
  const site = async (subDomain: string, folder = subDomain) =>
    (
      await t.call<{ subdomain: Subdomain }>(
        'POST',
        `service/${id}/subdomain/create/`,
        { subDomain, folder, SSLActive: '0' },
        { cookie },
      )
    ).body.data.subdomain;
  const database = async () =>
    (
      await t.call<{ ddbb: HostedDatabase }>(
        'POST',
        `service/${id}/ddbb/create/`,
        { password: `s3cret'"\\pass` },
        { cookie },
      )
    ).body.data.ddbb;
  const follow = async (jobId: string, as = cookie): Promise<InstallJob> => {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const { body } = await t.call<{ job: InstallJob }>('GET', `job/${jobId}/`, {}, { cookie: as });
      expect(body.system.job?.id).toBe(jobId);
      if (body.data.job.status === 'done' || body.data.job.status === 'failed') return body.data.job;
      await sleep(25);
    }
    throw new Error('the job did not finish');
  };
  const guestbookAnswers = (extra: Answer = {}): Answer => ({
    cfg_site_title: HOSTILE_TITLE,
    cfg_welcome: 'Hola\nmundo',
    cfg_language: 'ca',
    cfg_moderate: '1',
    cfg_admin_email: 'admin@instala.test',
    cfg_admin_password: "pa'ss\\word",
    ...extra,
  });
  const jobRows = () => t.database.db.selectFrom('install_jobs').selectAll().execute();

  it('lists the catalogue in the request language, featured first, with sizes and inputs', async () => {
    const { body } = await t.call<{ apps: HostingApplication[] }>(
      'GET',
      'hostingapplication/list/',
      { language: 'en' },
      { cookie },
    );
    const [guestbook, landing] = body.data.apps;
    expect(body.data.apps.map((app) => app.softName)).toEqual(['guestbook', 'landing-page']);
    expect(guestbook).toMatchObject({
      id: 1,
      fullName: 'Guestbook',
      category: 'guestbooks',
      type: 'php',
      featured: true,
      isBBDDApplication: true,
    });
    expect(guestbook?.description).toMatch(/^A PHP and MySQL guestbook/);
    expect(guestbook?.size).toBeGreaterThan(4000);
    const inputs = guestbook?.installConfig.flatMap((section) => section.inputs) ?? [];
    expect(guestbook?.installConfig.map((section) => section.title)).toEqual(['Site', 'Administration']);
    expect(inputs.find((input) => input.name === 'admin_password')).toMatchObject({
      type: 'text',
      password: true,
      value: '',
      isRequired: true,
    });
    expect(inputs.find((input) => input.name === 'language')?.options.map((option) => option.value)).toEqual([
      'es',
      'en',
      'ca',
    ]);
    expect(inputs.find((input) => input.name === 'theme')).toMatchObject({ type: 'hidden', value: 'light' });
    // The limits the server enforces, so the form can stop typing there.
    expect(inputs.find((input) => input.name === 'site_title')?.maxLength).toBe(100);
    expect(inputs.find((input) => input.name === 'welcome')?.maxLength).toBe(2000);
    expect(landing).toMatchObject({ type: 'js', isBBDDApplication: false, category: 'cms' });
    // The package's default answers follow the language too (the title, the site's language).
    expect(inputs.find((input) => input.name === 'site_title')?.value).toBe('My guestbook');
    expect(inputs.find((input) => input.name === 'language')?.value).toBe('en');
    for (const [language, title] of [
      ['es', 'Mi libro de visitas'],
      ['ca', 'El meu llibre de visites'],
    ] as const) {
      const listed = await t.call<{ apps: HostingApplication[] }>(
        'GET',
        'hostingapplication/list/',
        { language },
        { cookie },
      );
      const answers = listed.body.data.apps[0]?.installConfig.flatMap((section) => section.inputs) ?? [];
      expect(answers.find((input) => input.name === 'site_title')?.value).toBe(title);
      expect(answers.find((input) => input.name === 'language')?.value).toBe(language);
    }

    const spanish = await t.call<{ apps: HostingApplication[] }>('GET', 'hostingapplication/list/', {}, { cookie });
    expect(spanish.body.data.apps[0]?.installConfig[0]?.title).toBe('Sitio');
    expect((await t.call('GET', 'hostingapplication/list/')).body.system.statusCode).toBe(101);
  });

  it('serves logos to a bare <img> request, sandboxed', async () => {
    const logo = await t.app.inject({ method: 'GET', url: `${t.config.basePath}hostingapplication/1/logo/` });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/svg+xml');
    expect(logo.headers['content-security-policy']).toContain('sandbox');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(logo.body).toContain('<svg');
    for (const url of ['hostingapplication/99/logo/', 'hostingapplication/0/logo/']) {
      expect((await t.app.inject({ method: 'GET', url: `${t.config.basePath}${url}` })).statusCode, url).toBe(404);
    }
    // Only the logo is exempt from the CSRF header.
    const list = await t.app.inject({ method: 'GET', url: `${t.config.basePath}hostingapplication/list/` });
    expect(list.statusCode).toBe(403);
  });

  it('installs the guestbook into a site: files, escaped config, hashed password, a job that ends done', async () => {
    const blog = await site('libro');
    const db = await database();
    const { body } = await t.call<{ job: InstallJob }>(
      'POST',
      `service/${id}/installapp/`,
      {
        subdomainID: String(blog.id),
        applicationID: '1',
        mysqlID: String(db.id),
        subpath: 'gb',
        ...guestbookAnswers({ cfg_theme: 'dark', cfg_unknown: 'ignored' }),
      },
      { cookie },
    );
    expect(body.system.valid).toBe(true);
    expect(body.system.info).toEqual(['Instalación iniciada']);
    expect(body.system.job).toMatchObject({ id: body.data.job.id, status: 'queued' });
    expect(body.data.job.id).toMatch(/^[a-f0-9]{32}$/);

    const done = await follow(body.data.job.id);
    expect(done).toMatchObject({
      status: 'done',
      progress: 100,
      result: { url: `http://libro.${DOMAIN}/gb/`, folder: 'libro/gb' },
      error: null,
    });
    expect(readdirSync(home('libro', 'gb')).sort()).toEqual([
      'admin.php',
      'config.php',
      'index.php',
      'lib.php',
      'style.css',
    ]);
    // Nothing left behind beside it.
    expect(readdirSync(home('libro'))).toEqual(['gb']);
    const config = readFileSync(home('libro', 'gb', 'config.php'), 'utf8');
    expect(config).toContain(`const GB_SITE_TITLE = 'It\\'s "mine" \\\\\\' </title><script>x()</script> ${'$'}{x}';`);
    expect(config).toContain("const GB_WELCOME = 'Hola\nmundo';");
    expect(config).toContain("const GB_LANGUAGE = 'ca';");
    expect(config).toContain("const GB_MODERATE = '1';");
    // A hidden input keeps the package's value whatever the client sends.
    expect(config).toContain("const GB_THEME = 'light';");
    expect(config).toContain(`const GB_DB_NAME = '${db.bbdd}';`);
    expect(config).toContain("const GB_DB_HOST = '127.0.0.1';");
    expect(config).toContain(`const GB_DB_PASSWORD = 's3cret\\'"\\\\pass';`);
    expect(config).toMatch(/const GB_ADMIN_HASH = '\$2y\$10\$[./A-Za-z0-9]{53}';/);
    expect(config).not.toContain("pa\\'ss");
    expect(config).not.toContain('ignored');
    expect(statSync(home('libro', 'gb', 'config.php')).mode & 0o777).toBe(0o640);
  });

  it('writes the host of the databases server into an application whose service’s databases are placed on one', async () => {
    const blog = await site('remota');
    const db = await database();
    const { db: panel } = t.database;
    await panel
      .insertInto('nodes')
      .values({
        name: 'datos9',
        roles: 'databases',
        capacity: 10,
        host: 'datos9.example.net',
        channel_url: 'http://192.0.2.9:8247',
        state: 'active',
        key_hash: '0'.repeat(64),
        created_at: 0,
        last_seen_at: null,
      })
      .execute();
    await panel
      .insertInto('service_placements')
      .values({ service_id: id, role: 'databases', node: 'datos9', placed_at: 0 })
      .execute();
    try {
      const { body } = await t.call<{ job: InstallJob }>(
        'POST',
        `service/${id}/installapp/`,
        {
          subdomainID: String(blog.id),
          applicationID: '1',
          mysqlID: String(db.id),
          subpath: '',
          ...guestbookAnswers(),
        },
        { cookie },
      );
      expect(body.system.errors).toEqual([]);
      expect(await follow(body.data.job.id)).toMatchObject({ status: 'done' });
      expect(readFileSync(home('remota', 'config.php'), 'utf8')).toContain("const GB_DB_HOST = 'datos9.example.net';");
      // a zone name that follows the databases' server (a provider's `db CNAME {databases_host}`)
      // is given instead: it still leads there after the databases move
      await panel
        .insertInto('dns_zones')
        .values({ service_id: id, created_at: 0, unpublished_since: null })
        .onConflict((conflict) => conflict.column('service_id').doNothing())
        .execute();
      await panel
        .insertInto('dns_records')
        .values({
          service_id: id,
          zona: 'db',
          type: 'CNAME',
          ttl: 0,
          priority: 0,
          value: 'datos9.example.net',
          dynamic_value: '{databases_host}',
          eliminable: 1,
          created_at: 0,
        })
        .execute();
      const following = await site('siguiente');
      const again = await t.call<{ job: InstallJob }>(
        'POST',
        `service/${id}/installapp/`,
        {
          subdomainID: String(following.id),
          applicationID: '1',
          mysqlID: String(db.id),
          subpath: '',
          ...guestbookAnswers(),
        },
        { cookie },
      );
      expect(again.body.system.errors).toEqual([]);
      expect(await follow(again.body.data.job.id)).toMatchObject({ status: 'done' });
      expect(readFileSync(home('siguiente', 'config.php'), 'utf8')).toContain(`const GB_DB_HOST = 'db.${DOMAIN}';`);
    } finally {
      await panel.deleteFrom('dns_records').where('service_id', '=', id).where('zona', '=', 'db').execute();
      await panel.deleteFrom('service_placements').where('service_id', '=', id).execute();
      await panel.deleteFrom('nodes').where('name', '=', 'datos9').execute();
    }
  });

  it('refuses bad answers with field errors by position, and writes nothing', async () => {
    const blog = await site('errores');
    const db = await database();
    writeFileSync(home('errores', 'taken.html'), 'x');
    const before = await jobRows();
    const cases: [Answer, string[]][] = [
      [{ ...guestbookAnswers(), applicationID: '99' }, ['applicationID']],
      [{ ...guestbookAnswers(), subdomainID: '999999' }, ['subdomainID']],
      [{ ...guestbookAnswers(), mysqlID: '0' }, ['mysqlID']],
      [{ ...guestbookAnswers(), mysqlID: '999999' }, ['mysqlID']],
      [{ ...guestbookAnswers(), subpath: '../fuera' }, ['subpath']],
      [{ ...guestbookAnswers(), subpath: '/etc' }, ['subpath']],
      [{ ...guestbookAnswers(), subpath: 'a\r\nb' }, ['subpath']],
      // The site's folder itself already has a file.
      [{ ...guestbookAnswers(), subpath: '' }, ['subpath']],
      [guestbookAnswers({ cfg_site_title: '', cfg_admin_password: '' }), ['cfg_site_title', 'cfg_admin_password']],
      [guestbookAnswers({ cfg_admin_email: 'not an address' }), ['cfg_admin_email']],
      [guestbookAnswers({ cfg_language: 'xx' }), ['cfg_language']],
      [guestbookAnswers({ cfg_site_title: 'line\nbreak' }), ['cfg_site_title']],
      [guestbookAnswers({ cfg_welcome: 'nul\u0000' }), ['cfg_welcome']],
      [guestbookAnswers({ cfg_site_title: 'x'.repeat(101) }), ['cfg_site_title']],
    ];
    for (const [answers, inputs] of cases) {
      const { response, body } = await t.call(
        'POST',
        `service/${id}/installapp/`,
        { subdomainID: String(blog.id), applicationID: '1', mysqlID: String(db.id), subpath: 'ok', ...answers },
        { cookie },
      );
      expect(response.statusCode, JSON.stringify(answers)).toBe(400);
      expect(body.system.inputs, JSON.stringify(answers)).toEqual(inputs);
      expect(body.system.errors).toHaveLength(inputs.length);
    }
    // A database of another service is not one of this service's.
    const foreign = await t.call(
      'POST',
      `service/${id}/installapp/`,
      { subdomainID: String(blog.id), applicationID: '1', mysqlID: '999998', subpath: 'ok', ...guestbookAnswers() },
      { cookie },
    );
    expect(foreign.body.system.inputs).toEqual(['mysqlID']);
    expect(await jobRows()).toEqual(before);
    expect(readdirSync(home('errores'))).toEqual(['taken.html']);
  });

  it('installs an application without a database, and a folder given as a link out of the home is refused', async () => {
    const landing = await site('portada');
    symlinkSync('/tmp', home('portada', 'afuera'));
    const outside = await t.call(
      'POST',
      `service/${id}/installapp/`,
      { subdomainID: String(landing.id), applicationID: '2', subpath: 'afuera/x', cfg_title: 'Hola' },
      { cookie },
    );
    expect(outside.body.system.inputs).toEqual(['subpath']);
    const linked = await t.call(
      'POST',
      `service/${id}/installapp/`,
      { subdomainID: String(landing.id), applicationID: '2', subpath: 'afuera', cfg_title: 'Hola' },
      { cookie },
    );
    expect(linked.body.system.inputs).toEqual(['subpath']);

    const { body } = await t.call<{ job: InstallJob }>(
      'POST',
      `service/${id}/installapp/`,
      { subdomainID: String(landing.id), applicationID: '2', mysqlID: '', subpath: 'web', cfg_title: 'Título "uno"' },
      { cookie },
    );
    const done = await follow(body.data.job.id);
    expect(done.status).toBe('done');
    const config = JSON.parse(readFileSync(home('portada', 'web', 'config.json'), 'utf8'));
    // An unticked checkbox is '0' (the client sends only ticked ones); the URL is the site's.
    expect(config).toEqual({
      title: 'Título "uno"',
      tagline: '',
      contactEmail: '',
      showContact: '0',
      url: `http://portada.${DOMAIN}/web/`,
    });

    // The same folder again: it is not empty any more.
    const again = await t.call(
      'POST',
      `service/${id}/installapp/`,
      { subdomainID: String(landing.id), applicationID: '2', subpath: 'web', cfg_title: 'x' },
      { cookie },
    );
    expect(again.body.system.inputs).toEqual(['subpath']);
  });

  it('needs action on sites, FTP and databases; other accounts’ services, sites and jobs are not found', async () => {
    const blog = await site('permisos');
    const params = { subdomainID: String(blog.id), applicationID: '2', subpath: 'p', cfg_title: 'x' };
    for (const key of ['service_subdomains', 'service_ftp', 'service_ddbb'] as const) {
      const user = await buildUser(t.database.db, account, `inst-${key.replace(/_/g, '')}`, {
        [DOMAIN]: { ...allKeys('write'), [key]: 'read' },
      });
      const userCookie = await t.login(account.domainName, user.username, user.password);
      const refused = await t.call('POST', `service/${id}/installapp/`, params, { cookie: userCookie });
      expect(refused.response.statusCode, key).toBe(403);
      expect(refused.body.system.errors).toEqual(['No tienes permiso para realizar esta acción']);
    }
    const none = await buildUser(t.database.db, account, 'inst-none', {
      [DOMAIN]: { ...allKeys('disabled'), service: 'read' },
    });
    const noneCookie = await t.login(account.domainName, none.username, none.password);
    expect(
      (await t.call('POST', `service/${id}/installapp/`, params, { cookie: noneCookie })).response.statusCode,
    ).toBe(404);
    expect(existsSync(home('permisos', 'p'))).toBe(false);

    const otherCookie = await t.login(other.domainName, other.username, other.password);
    expect((await t.call('POST', `service/${otherId}/installapp/`, params, { cookie })).response.statusCode).toBe(404);
    // This service's site under the other account's own service: not one of its sites.
    const otherSite = await t.call('POST', `service/${otherId}/installapp/`, params, { cookie: otherCookie });
    expect(otherSite.body.system.inputs).toEqual(['subdomainID']);

    const mine = await t.call<{ job: InstallJob }>('POST', `service/${id}/installapp/`, params, { cookie });
    await follow(mine.body.data.job.id);
    const stolen = await t.call('GET', `job/${mine.body.data.job.id}/`, {}, { cookie: otherCookie });
    expect(stolen.response.statusCode).toBe(404);
    // A malformed id in the path names no job: the unknown id's 404, like every route.
    expect((await t.call('GET', 'job/not-a-job/', {}, { cookie })).response.statusCode).toBe(404);
  });

  it('reports a job whose process stopped as failed, with a translated name and message', async () => {
    const row = { id: 'f'.repeat(32), user_id: account.userId, service_id: id, app_id: 1, status: 'running' };
    const old = Math.floor(t.clock.now() / 1000) - 3600;
    await t.database.db
      .insertInto('install_jobs')
      .values({ ...row, created_at: old, updated_at: old })
      .execute();
    const { body } = await t.call<{ job: InstallJob }>('GET', `job/${row.id}/`, { language: 'en' }, { cookie });
    expect(body.data.job).toMatchObject({
      status: 'failed',
      result: null,
      error: {
        name: 'The application could not be installed',
        message: 'The installation was interrupted. Nothing was installed; please try again.',
      },
    });
  });
});

describe.each(DATABASE_KINDS)('application packages from archives on %s', (kind) => {
  let t: TestApp;
  let cookie: string;
  let id: number;
  let root: string;
  const problems: string[] = [];

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'p247-installer-tar-'));
    t = await buildTestApp(kind, {
      config: {
        'hosting.root': root,
        'installer.appsDir': await archiveCatalogue(),
        'web.configDir': mkdtempSync(path.join(tmpdir(), 'p247-installer-tar-web-')),
        logLevel: 'warn',
      },
    });
    t.app.log.warn = ((detail: { folder?: string }) => {
      if (detail.folder) problems.push(path.basename(detail.folder));
    }) as typeof t.app.log.warn;
    const account = await buildAccount(t.database.db, {
      domainName: 'tar.test',
      resources: { 'tar.test': { hasService: true } },
    });
    id = account.resources['tar.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  it('offers only the packages whose archive stays inside its folder', async () => {
    const { body } = await t.call<{ apps: HostingApplication[] }>('GET', 'hostingapplication/list/', {}, { cookie });
    expect(body.data.apps.map((app) => app.softName)).toEqual(['packed']);
    expect(body.data.apps[0]?.size).toBe('<?php echo "packed";\n'.length + '<?php\n'.length);
    expect(problems.sort()).toEqual(['absolute', 'badtemplate', 'dotdot', 'symlink']);
    expect(existsSync('/tmp/p247-absolute.php')).toBe(false);
  });

  it('unpacks an archive into the chosen folder', async () => {
    const sites = await t.call<{ subdomains: Subdomain[] }>('GET', `service/${id}/subdomain/list/`, {}, { cookie });
    const main = sites.body.data.subdomains[0] as Subdomain;
    const { body } = await t.call<{ job: InstallJob }>(
      'POST',
      `service/${id}/installapp/`,
      { subdomainID: String(main.id), applicationID: '10', subpath: 'app', cfg_title: "a'b" },
      { cookie },
    );
    let job = body.data.job;
    for (let attempt = 0; attempt < 200 && (job.status === 'queued' || job.status === 'running'); attempt += 1) {
      await sleep(25);
      job = (await t.call<{ job: InstallJob }>('GET', `job/${job.id}/`, {}, { cookie })).body.data.job;
    }
    expect(job).toMatchObject({ status: 'done', result: { url: 'http://tar.test/app/', folder: 'app' } });
    const app = path.join(root, 'tar.test', 'app');
    expect(readFileSync(path.join(app, 'index.php'), 'utf8')).toBe('<?php echo "packed";\n');
    expect(readFileSync(path.join(app, 'lib', 'util.php'), 'utf8')).toBe('<?php\n');
    expect(readFileSync(path.join(app, 'settings.php'), 'utf8')).toContain("const TITLE = 'a\\'b';");
  });

  it('fails the job, and leaves nothing, when the package breaks after it was loaded', async () => {
    const catalogue = t.config.installer.appsDir as string;
    writeFileSync(path.join(catalogue, 'packed', 'files.tar.gz'), 'not gzip at all');
    const sites = await t.call<{ subdomains: Subdomain[] }>('GET', `service/${id}/subdomain/list/`, {}, { cookie });
    const main = sites.body.data.subdomains[0] as Subdomain;
    const { body } = await t.call<{ job: InstallJob }>(
      'POST',
      `service/${id}/installapp/`,
      { subdomainID: String(main.id), applicationID: '10', subpath: 'broken', cfg_title: 'x' },
      { cookie },
    );
    let job = body.data.job;
    for (let attempt = 0; attempt < 200 && (job.status === 'queued' || job.status === 'running'); attempt += 1) {
      await sleep(25);
      job = (await t.call<{ job: InstallJob }>('GET', `job/${job.id}/`, {}, { cookie })).body.data.job;
    }
    expect(job.status).toBe('failed');
    expect(job.error?.name).toBe('No se ha podido instalar la aplicación');
    expect(existsSync(path.join(root, 'tar.test', 'broken'))).toBe(false);
    expect(readdirSync(path.join(root, 'tar.test')).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
