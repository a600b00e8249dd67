import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import type { HostedDatabase } from '@panel247/contract/databases';
import type { ErrorLogLine, Subdomain } from '@panel247/contract/hosting';
import type { InstallJob } from '@panel247/contract/installer';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { startWebServers, type WebServers } from '../../../../scripts/daemons/web.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { nginxPanelConfig } from '../support/nginx-config.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import {
  adminOptions,
  dropEverythingWithPrefix,
  mariadbReachable,
  randomNamePrefix,
  TEST_MARIADB_URL,
} from '../support/test-mariadb.ts';

const run = promisify(execFile);
const reachable = await mariadbReachable();
const DOMAIN = 'libro.test';
const BUILDER_KEY = 'b'.repeat(48);
const VERIFIER = path.join(import.meta.dirname, '../../../../deploy/sitebuilder/verify-token.php');

interface Answer {
  status: number;
  body: string;
  cookies: string[];
}

/**
 * The whole panel (API → services → nginx driver, MariaDB driver) against a real nginx, PHP-FPM
 * 8.2 and MariaDB on loopback: what a customer's site does after the panel's calls.
 */
describe.skipIf(!reachable)('hosting service on a real nginx, PHP-FPM and MariaDB', () => {
  const prefix = randomNamePrefix();
  let servers: WebServers;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  let homes: string;

  /** A request to nginx with a Host header, as a browser of the site would make it. */
  const request = (host: string, urlPath: string, options: { form?: Record<string, string>; cookie?: string } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
      const outgoing = http.request(
        {
          host: '127.0.0.1',
          port: servers.httpPort,
          path: urlPath,
          method: body === undefined ? 'GET' : 'POST',
          agent: false,
          headers: {
            host,
            ...(options.cookie ? { cookie: options.cookie } : {}),
            ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: text,
              cookies: (response.headers['set-cookie'] ?? []).map((line) => line.split(';')[0] as string),
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  /** nginx applies a reload in the background: ask again until the answer is the expected one. */
  const eventually = async (host: string, urlPath: string, expected: (answer: Answer) => boolean) => {
    const until = Date.now() + 15_000;
    let last: Answer | Error = new Error('no answer');
    while (Date.now() < until) {
      last = await request(host, urlPath).catch((error: Error) => error);
      if (!(last instanceof Error) && expected(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(
      `${host}${urlPath}: ${last instanceof Error ? last.message : JSON.stringify(last)}\n${servers.logs()}`,
    );
  };

  const createSite = async (subDomain: string) => {
    const { body } = await t.call<{ subdomain: Subdomain }>(
      'POST',
      `service/${id}/subdomain/create/`,
      { subDomain, folder: subDomain, SSLActive: '0' },
      { cookie },
    );
    if (!body.system.valid) throw new Error(`${body.system.errors.join(', ')}\n${servers.logs()}`);
    return body.data.subdomain;
  };

  const install = async (params: Record<string, string>): Promise<InstallJob> => {
    const started = await t.call<{ job: InstallJob }>('POST', `service/${id}/installapp/`, params, { cookie });
    if (!started.body.system.valid) throw new Error(started.body.system.errors.join(', '));
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const { body } = await t.call<{ job: InstallJob }>('GET', `job/${started.body.data.job.id}/`, {}, { cookie });
      if (body.data.job.status === 'done' || body.data.job.status === 'failed') return body.data.job;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the install did not finish');
  };

  beforeAll(async () => {
    servers = await startWebServers();
    homes = path.join(servers.dir, 'homes');
    mkdirSync(homes, { recursive: true, mode: 0o755 });
    chmodSync(homes, 0o755);
    t = await buildTestApp('sqlite', {
      config: {
        ...nginxPanelConfig(servers, homes),
        'hosting.siteBuilderKey': BUILDER_KEY,
        'databases.driver': 'mariadb',
        'databases.url': TEST_MARIADB_URL,
        'databases.namePrefix': prefix,
      },
    });
    account = await buildAccount(t.database.db, { domainName: DOMAIN, resources: { [DOMAIN]: { hasService: true } } });
    id = account.resources[DOMAIN] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await servers?.stop();
    await dropEverythingWithPrefix(prefix);
  });

  it('shows a PHP error the test provoked in the service’s error log, through the API', async () => {
    const site = await createSite('errores');
    const marker = `p247_undefined_${process.pid}`;
    const script = path.join(homes, DOMAIN, site.directorio, 'boom.php');
    writeFileSync(script, `<?php\n${marker}();\n`);
    chmodSync(script, 0o644);
    const answer = await eventually(`errores.${DOMAIN}`, '/boom.php', (a) => a.status === 500);
    expect(answer.body).not.toContain(marker);

    let lines: ErrorLogLine[] = [];
    const until = Date.now() + 15_000;
    while (!lines.some((line) => line.line.includes(marker)) && Date.now() < until) {
      lines = (await t.call<{ logs: ErrorLogLine[] }>('GET', `service/${id}/logerror/`, {}, { cookie })).body.data.logs;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const fatal = lines.find((line) => line.line.includes(marker));
    expect(fatal).toMatchObject({ source: 'php' });
    expect(fatal?.line).toMatch(/PHP Fatal error: {2}Uncaught Error: Call to undefined function/);
  });

  it('installs the guestbook: nginx serves it, it reaches its MariaDB database, and its admin logs in', async () => {
    const database = (
      await t.call<{ ddbb: HostedDatabase }>(
        'POST',
        `service/${id}/ddbb/create/`,
        { password: `Gb'pa"ss\\1` },
        { cookie },
      )
    ).body.data.ddbb;
    const site = await createSite('libro');
    const job = await install({
      subdomainID: String(site.id),
      applicationID: '1',
      mysqlID: String(database.id),
      subpath: '',
      cfg_site_title: 'Libro de <Ana> & "Luis"',
      cfg_welcome: 'Bienvenida',
      cfg_language: 'es',
      cfg_admin_email: 'ana@libro.test',
      cfg_admin_password: "Adm1n'pass\\word",
    });
    expect(job).toMatchObject({ status: 'done', result: { url: `http://libro.${DOMAIN}/`, folder: 'libro' } });

    const host = `libro.${DOMAIN}`;
    const page = await eventually(host, '/', (a) => a.status === 200);
    expect(page.body).toContain('<h1>Libro de &lt;Ana&gt; &amp; &quot;Luis&quot;</h1>');
    expect(page.body).toContain('Todavía no hay mensajes.');
    expect(page.body).toContain('<footer>Base de datos conectada</footer>');

    // Sign it: the form's token lives in the PHP session (the pool's own session folder).
    const session = page.cookies.join('; ');
    const token = /name="token" value="([a-f0-9]{32})"/.exec(page.body)?.[1] ?? '';
    expect(token).not.toBe('');
    const signed = await request(host, '/', {
      cookie: session,
      form: { token, name: 'Eva', message: 'Hola <b>panel</b>' },
    });
    expect(signed.status).toBe(200);
    expect(signed.body).toContain('Gracias por tu mensaje.');
    expect(signed.body).toContain('<p>Hola &lt;b&gt;panel&lt;/b&gt;</p>');

    const root = await mysql.createConnection({ ...adminOptions(), database: database.bbdd });
    try {
      const [rows] = await root.query<mysql.RowDataPacket[]>('SELECT name, message FROM guestbook_entries');
      expect(rows.map((row) => ({ ...row }))).toEqual([{ name: 'Eva', message: 'Hola <b>panel</b>' }]);
    } finally {
      await root.end();
    }

    // The admin password went through the |hash filter: PHP's password_verify accepts it.
    const adminPage = await request(host, '/admin.php');
    const adminCookie = adminPage.cookies.join('; ');
    const adminToken = /name="token" value="([a-f0-9]{32})"/.exec(adminPage.body)?.[1] ?? '';
    const wrong = await request(host, '/admin.php', {
      cookie: adminCookie,
      form: { token: adminToken, action: 'login', email: 'ana@libro.test', password: 'nope' },
    });
    expect(wrong.status).toBe(403);
    const right = await request(host, '/admin.php', {
      cookie: adminCookie,
      form: { token: adminToken, action: 'login', email: 'ana@libro.test', password: "Adm1n'pass\\word" },
    });
    expect(right.status).toBe(200);
    expect(right.body).toContain('No hay mensajes pendientes.');
  });

  it('installs the static landing page into a path of a site, served with its config', async () => {
    const site = await createSite('portada');
    const job = await install({
      subdomainID: String(site.id),
      applicationID: '2',
      subpath: 'hola',
      cfg_title: 'Tienda "Sol"',
      cfg_show_contact: '1',
      cfg_contact_email: 'sol@libro.test',
    });
    expect(job.status).toBe('done');
    const host = `portada.${DOMAIN}`;
    expect((await eventually(host, '/hola/', (a) => a.status === 200)).body).toContain('<script src="app.js" defer>');
    const config = await request(host, '/hola/config.json');
    expect(JSON.parse(config.body)).toMatchObject({
      title: 'Tienda "Sol"',
      showContact: '1',
      contactEmail: 'sol@libro.test',
      url: `http://${host}/hola/`,
    });
  });

  it('gives the site builder a token its own verifier (deploy/sitebuilder) accepts once it is genuine', async () => {
    const php = requireBinary('php', 'php8.2-cli');
    const { body } = await t.call<{ url: string }>(
      'POST',
      `service/${id}/webcontructorlogin/`,
      { subdomain: 'libro' },
      { cookie },
    );
    const token = new URL(body.data.url, 'http://panel.test').searchParams.get('token') as string;
    const env = { ...process.env, PANEL_SITEBUILDER_KEY: BUILDER_KEY };
    const checked = await run(php, [VERIFIER, token], { env });
    expect(JSON.parse(checked.stdout)).toMatchObject({ v: 1, service: id, host: `libro.${DOMAIN}`, folder: 'libro' });

    const [payload, signature] = token.split('.') as [string, string];
    const tampered = `${payload.slice(0, -2)}${payload.endsWith('A') ? 'B' : 'A'}${payload.slice(-1)}.${signature}`;
    for (const [bad, key] of [
      [tampered, BUILDER_KEY],
      [token, 'x'.repeat(48)],
      [`${token}.extra`, BUILDER_KEY],
    ] as const) {
      const refused = await run(php, [VERIFIER, bad], { env: { ...env, PANEL_SITEBUILDER_KEY: key } }).catch(
        (error: { code: number }) => error,
      );
      expect((refused as { code: number }).code).toBe(1);
    }
  });
});
