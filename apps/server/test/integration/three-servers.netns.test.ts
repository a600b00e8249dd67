import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FtpAccount } from '@panel247/contract/ftp';
import type { Mailbox } from '@panel247/contract/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeNamespace, type NodeNamespace } from '../../../../scripts/daemons/netns.ts';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { buildAccount } from '../support/factories.ts';
import { dropServerRoles, joinServer } from '../support/provider-servers.ts';
import { deliverAt, ftpUploadAt, imapAt, uidAt } from '../support/server-clients.ts';
import {
  type MailServerNamespace,
  startMailServerNamespace,
  startWebServerNamespace,
  until,
  type WebServerNamespace,
} from '../support/server-namespace.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const isRoot = process.getuid?.() === 0;
const DOMAIN = 'tres-servidores.test';

/**
 * The control plane outside and three servers of the provider's, each a network namespace with
 * its own address and daemons: a web server (nginx, PHP-FPM, ProFTPD and its agent), a mail
 * server (Postfix, Dovecot and its agent) and a name server (a PowerDNS secondary of the panel's
 * primary). One service is placed across them, and each of its parts is proven with a real
 * client at its server's address: dig at both name servers, HTTP through nginx and an FTP upload
 * at the web server, IMAP and an SMTP delivery at the mail server.
 */
describe.skipIf(!isRoot && process.env.CI !== 'true')('a service across three servers of their own', () => {
  let database: TestDatabase;
  let web: WebServerNamespace;
  let mail: MailServerNamespace;
  let nameServer: NodeNamespace;
  let primary: PowerDns;
  let secondary: PowerDns;
  let t: TestApp;
  let serviceId: number;
  let cookie: string;

  /** The answer of both name servers once they agree on `expected`. */
  const bothAnswer = (name: string, type: string, expected: string[]) =>
    until(
      async () => ({ primary: await primary.dig(name, type), secondary: await secondary.dig(name, type) }),
      (both) => JSON.stringify([both.primary, both.secondary]) === JSON.stringify([expected, expected]),
      15_000,
    );

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    nameServer = await createNodeNamespace('p247tri3', 32);
    [web, mail, primary] = await Promise.all([
      startWebServerNamespace('p247tri1', 30, { databaseUrl: database.url as string, node: 'tweb1' }),
      startMailServerNamespace('p247tri2', 31, database.url as string, 'tmail1'),
      startPowerDns(
        undefined,
        { kind: 'sqlite' },
        { role: 'primary', listen: `${nameServer.hostAddress}:53`, secondaries: [`${nameServer.address}:53`] },
      ),
    ]);
    secondary = await startPowerDns(
      undefined,
      { kind: 'sqlite' },
      { role: 'secondary', namespace: nameServer, primary: nameServer.hostAddress, nameserver: 'ns2.provider.test' },
    );
    t = await buildTestApp('postgres', {
      database,
      config: {
        databaseUrl: database.url,
        'web.applyWaitSeconds': 5,
        'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-three-homes-')),
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': primary.apiUrl,
        'dns.powerdnsApiKey': primary.apiKey,
        'dns.powerdnsZoneKind': 'primary',
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        'dns.powerdnsTimeoutSeconds': 30,
      },
    });
    const cliEnv = {
      PANEL_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'p247-three-cli-')),
      PANEL_LOG_LEVEL: 'silent',
      PANEL_DATABASE_URL: database.url as string,
      PANEL_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
    };
    await joinServer(cliEnv, database.url as string, 'tweb1', web, 'web');
    await joinServer(cliEnv, database.url as string, 'tmail1', mail, 'mail');
    const account = await buildAccount(database.db, {
      domainName: DOMAIN,
      resources: { [DOMAIN]: { hasService: true, hasMail: true } },
    });
    serviceId = account.resources[DOMAIN] as number;
    cookie = await t.login(DOMAIN, account.username, account.password);
    // its zone, made on first use with the records that point at its servers
    await t.call('GET', `service/${serviceId}/dns/list/`, {}, { cookie });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([web?.destroy(), mail?.destroy()]);
    await secondary?.stop();
    await primary?.stop();
    await nameServer?.destroy();
    await dropServerRoles(['tweb1', 'tmail1']);
  });

  it('places the web part on the web server and the mail on the mail server; both name servers say so', async () => {
    const placed = await database.db
      .selectFrom('service_placements')
      .select(['role', 'node'])
      .where('service_id', '=', serviceId)
      .orderBy('role')
      .execute();
    expect(placed).toEqual([
      { role: 'mail', node: 'tmail1' },
      { role: 'web', node: 'tweb1' },
    ]);
    expect((await bothAnswer(DOMAIN, 'A', [web.ns.address])).secondary).toEqual([web.ns.address]);
    expect((await bothAnswer(`mail.${DOMAIN}`, 'A', [mail.ns.address])).secondary).toEqual([mail.ns.address]);
  });

  it('serves the site at the web server through nginx, and takes an FTP upload there', async () => {
    const site = await t.call(
      'POST',
      `service/${serviceId}/subdomain/create/`,
      { subDomain: 'blog', folder: 'blog' },
      { cookie },
    );
    expect(site.body.system.errors).toEqual([]);
    await until(
      async () => {
        try {
          web.page(DOMAIN, 'blog', 'hola desde el servidor web\n');
          return (await web.site(`blog.${DOMAIN}`)).body;
        } catch {
          return '';
        }
      },
      (body) => body === 'hola desde el servidor web\n',
      20_000,
    );
    const created = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${serviceId}/ftp/create/`,
      { ftpUser: 'subidas', password: 'ftp clave 3', folder: 'blog' },
      { cookie },
    );
    expect(created.body.system.errors).toEqual([]);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'p247-three-ftp-')), 'subida.html');
    writeFileSync(file, 'subida por FTP\n');
    const upload = () => ftpUploadAt(web, created.body.data.ftp.user, 'ftp clave 3', file, 'subida.html');
    expect(await until(upload, (code) => code === 0, 20_000)).toBe(0);
    expect(readFileSync(path.join(web.homes, DOMAIN, 'blog', 'subida.html'), 'utf8')).toBe('subida por FTP\n');
    expect((await web.site(`blog.${DOMAIN}`, '/subida.html')).body).toBe('subida por FTP\n');
  });

  it('logs the mailbox in over IMAP at the mail server and takes mail for it there over SMTP', async () => {
    const created = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${serviceId}/correo/create/`,
      { name: 'info', password: 'tres clave 1' },
      { cookie },
    );
    expect(created.body.system.errors).toEqual([]);
    const user = `info@${DOMAIN}`;
    expect(
      (
        await until(
          () => imapAt(mail, user, 'tres clave 1'),
          (answer) => answer.code === 0,
          20_000,
        )
      ).code,
    ).toBe(0);
    expect((await imapAt(mail, user, 'otra clave')).code).toBe(67);
    await deliverAt(mail, user, 'hola tres servidores');
    expect(
      await until(
        () => uidAt(mail, user, 'tres clave 1', 'hola tres servidores'),
        (uid) => uid !== undefined,
        20_000,
      ),
    ).toMatch(/^\d+$/);
  });
});
