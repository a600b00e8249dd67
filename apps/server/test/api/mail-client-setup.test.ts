import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const SSL_HOST = 'secure.proveedor.example';
const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => ['incomingServer', 'outgoingServer', 'Protocol'].includes(name),
});

const autodiscoverRequest = (
  email: string,
  schema = 'http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a',
) =>
  `<?xml version="1.0" encoding="utf-8"?>
<Autodiscover xmlns="http://schemas.microsoft.com/exchange/autodiscover/outlook/requestschema/2006">
  <Request>
    <EMailAddress>${email}</EMailAddress>
    <AcceptableResponseSchema>${schema}</AcceptableResponseSchema>
  </Request>
</Autodiscover>`;

describe.each(DATABASE_KINDS)('mail client set-up on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let id: number;
  let boxId: number;
  let cookie: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'mail.imapSslPort': 10993 } });
    const admin = new AdminService(t.database.db, new LocalEventBus(), () => Math.floor(Date.now() / 1000));
    await admin.ensureBrand({ slug: 'setup-brand', company: 'Proveedor & Cía', sslHost: SSL_HOST });
    account = await buildAccount(t.database.db, {
      brandSlug: 'setup-brand',
      domainName: 'clientes.test',
      resources: {
        'clientes.test': { hasMail: true, hasService: true },
        'sin-correo.test': { hasService: true },
      },
    });
    id = account.resources['clientes.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    const created = await t.call<{ correo: { id: number } }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'info', password: 'a good password' },
      { cookie },
    );
    boxId = created.body.data.correo.id;
  });
  afterAll(() => t.close());

  const autoconfig = (query: string, host = 'autoconfig.clientes.test', path = '/mail/config-v1.1.xml') =>
    t.app.inject({ method: 'GET', url: `${path}${query}`, headers: { host } });
  const autodiscover = (payload: string, path = '/autodiscover/autodiscover.xml', type = 'text/xml') =>
    t.app.inject({
      method: 'POST',
      url: path,
      headers: { host: 'autodiscover.clientes.test', 'content-type': type },
      payload,
    });

  it('answers Thunderbird’s autoconfig with the connection data’s hosts and ports, on both paths', async () => {
    for (const path of ['/mail/config-v1.1.xml', '/.well-known/autoconfig/mail/config-v1.1.xml']) {
      const response = await autoconfig('?emailaddress=info%40clientes.test', 'clientes.test', path);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(XMLValidator.validate(response.body)).toBe(true);
      const provider = parser.parse(response.body).clientConfig.emailProvider;
      expect(provider['@_id']).toBe('clientes.test');
      expect(provider.displayName).toBe('Proveedor & Cía');
      expect(provider.incomingServer).toEqual([
        expect.objectContaining({ '@_type': 'imap', hostname: SSL_HOST, port: '10993', socketType: 'SSL' }),
        expect.objectContaining({
          '@_type': 'imap',
          hostname: 'imap.clientes.test',
          port: '143',
          socketType: 'STARTTLS',
          authentication: 'password-cleartext',
        }),
      ]);
      expect(provider.outgoingServer).toEqual([
        expect.objectContaining({ hostname: SSL_HOST, port: '465', socketType: 'SSL', username: '%EMAILADDRESS%' }),
        expect.objectContaining({
          hostname: 'smtp.clientes.test',
          port: '587',
          socketType: 'STARTTLS',
          authentication: 'password-cleartext',
        }),
      ]);
    }
    // the same hosts as the mail view's dialog
    const connection = await t.call<{ ssl: { imap: string }; plain: { smtp: string } }>(
      'GET',
      `service/${id}/correo/connection/`,
      {},
      { cookie },
    );
    expect(connection.body.data.ssl.imap).toBe(SSL_HOST);
    expect(connection.body.data.plain.smtp).toBe('smtp.clientes.test');
  });

  it('answers the same for a mailbox that exists and one that does not', async () => {
    const known = await autoconfig('?emailaddress=info%40clientes.test');
    const unknown = await autoconfig('?emailaddress=nadie%40clientes.test');
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.body).not.toContain('info@');
    const a = await autodiscover(autodiscoverRequest('info@clientes.test'));
    const b = await autodiscover(autodiscoverRequest('nadie@clientes.test'));
    expect(b.statusCode).toBe(200);
    expect(b.body.replaceAll('nadie@', 'info@')).toBe(a.body);
  });

  it('takes the domain from the host when Thunderbird sends no address', async () => {
    const response = await autoconfig('', 'AUTOCONFIG.clientes.test:8080');
    expect(response.statusCode).toBe(200);
    expect(parser.parse(response.body).clientConfig.emailProvider.domain).toBe('clientes.test');
    expect((await autoconfig('', 'autoconfig.otro.test')).statusCode).toBe(404);
  });

  it('answers 404 for a domain without mail here, whatever the host', async () => {
    for (const query of ['?emailaddress=info%40sin-correo.test', '?emailaddress=info%40nunca-visto.test']) {
      const response = await autoconfig(query);
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe('Not found\n');
    }
    const response = await autodiscover(autodiscoverRequest('info@sin-correo.test'));
    expect(response.statusCode).toBe(404);
  });

  it('refuses malformed addresses with a bare 400, echoing nothing', async () => {
    const bad = [
      'info',
      '@clientes.test',
      'a@b@clientes.test',
      'info@clientes',
      "x'or'1'='1@clientes.test",
      'info%0d%0aX-Injected:%201@clientes.test',
      `${'a'.repeat(65)}@clientes.test`,
      'info@clientes.test.',
      '<script>@clientes.test',
    ];
    for (const address of bad) {
      const response = await autoconfig(
        `?emailaddress=${encodeURIComponent(address).replaceAll('%250d%250a', '%0d%0a')}`,
      );
      expect(response.statusCode, address).toBe(400);
      expect(response.body).toBe('Bad request\n');
    }
    expect((await autoconfig('?emailaddress=a%40clientes.test&emailaddress=b%40clientes.test')).statusCode).toBe(400);
  });

  it('answers Outlook’s autodiscover with the SSL hosts and the address as login', async () => {
    for (const path of ['/autodiscover/autodiscover.xml', '/Autodiscover/Autodiscover.xml']) {
      const response = await autodiscover(autodiscoverRequest('Info@Clientes.test'), path);
      expect(response.statusCode).toBe(200);
      expect(XMLValidator.validate(response.body)).toBe(true);
      const account = parser.parse(response.body).Autodiscover.Response.Account;
      expect(account.AccountType).toBe('email');
      expect(account.Protocol).toEqual([
        expect.objectContaining({
          Type: 'IMAP',
          Server: SSL_HOST,
          Port: '10993',
          SSL: 'on',
          Encryption: 'SSL',
          AuthRequired: 'on',
          LoginName: 'info@clientes.test',
        }),
        expect.objectContaining({
          Type: 'SMTP',
          Server: SSL_HOST,
          Port: '465',
          SSL: 'on',
          Encryption: 'SSL',
          AuthRequired: 'on',
          LoginName: 'info@clientes.test',
        }),
      ]);
    }
    // with namespace prefixes and without the schema element
    const prefixed = await autodiscover(
      '<a:Autodiscover xmlns:a="http://schemas.microsoft.com/exchange/autodiscover/outlook/requestschema/2006"><a:Request><a:EMailAddress>info@clientes.test</a:EMailAddress></a:Request></a:Autodiscover>',
    );
    expect(prefixed.statusCode).toBe(200);
  });

  it('refuses entities, DTDs, bad XML and other schemas without expanding anything', async () => {
    const billion = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<Autodiscover><Request><EMailAddress>info@clientes.test&lol2;</EMailAddress></Request></Autodiscover>`;
    const external = `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Autodiscover><Request><EMailAddress>&xxe;</EMailAddress></Request></Autodiscover>`;
    for (const payload of [
      billion,
      external,
      '<Autodiscover><Request><EMailAddress>info@clientes.test</Request></Autodiscover>',
      '<Autodiscover><Request></Request></Autodiscover>',
      autodiscoverRequest('info@clientes.test&amp;x'),
      autodiscoverRequest('<![CDATA[info@clientes.test]]>'),
      'not xml at all',
    ]) {
      const response = await autodiscover(payload);
      expect(response.statusCode, payload).toBe(400);
      expect(response.body).not.toContain('root:');
    }
    const activeSync = await autodiscover(
      autodiscoverRequest(
        'info@clientes.test',
        'http://schemas.microsoft.com/exchange/autodiscover/mobilesync/responseschema/2006',
      ),
    );
    expect(activeSync.statusCode).toBe(404);
    // a form body is not XML; a huge body is refused before it is read
    expect(
      (await autodiscover('EMailAddress=info@clientes.test', undefined, 'application/x-www-form-urlencoded'))
        .statusCode,
    ).toBe(400);
    expect((await autodiscover(`<a>${'x'.repeat(20_000)}</a>`)).statusCode).toBe(413);
  });

  it('gives a logged-in reader a mailbox’s .mobileconfig, without a password', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${id}/correo/${boxId}/mobileconfig/`,
      headers: { cookie, 'x-dd-request': '1' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-apple-aspen-config');
    expect(response.headers['content-disposition']).toContain('filename="info@clientes.test.mobileconfig"');
    expect(XMLValidator.validate(response.body)).toBe(true);
    expect(response.body).toContain('<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN"');
    const dict = new XMLParser({ preserveOrder: false, parseTagValue: false }).parse(response.body).plist.dict;
    expect(dict.string).toContain('Configuration');
    const account = dict.array.dict;
    expect(account.string).toEqual(
      expect.arrayContaining(['com.apple.mail.managed', 'EmailTypeIMAP', 'info@clientes.test', SSL_HOST]),
    );
    expect(account.integer).toEqual(['1', '10993', '465']);
    // TLS on both servers (UseSSL), as they are served; nothing in the profile is switched off
    expect(response.body).toMatch(/<key>IncomingMailServerUseSSL<\/key>\s*<true\/>/);
    expect(response.body).toMatch(/<key>OutgoingMailServerUseSSL<\/key>\s*<true\/>/);
    expect(response.body).not.toContain('<false/>');
    expect(response.body).not.toMatch(/Password<\/key>\s*<string>/);
    expect(response.body).not.toContain('a good password');
    // the same profile twice: the same identifiers, so a second install replaces the first
    const again = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${id}/correo/${boxId}/mobileconfig/`,
      headers: { cookie, 'x-dd-request': '1' },
    });
    expect(again.body).toBe(response.body);
  });

  it('needs the mailbox read right, and a mailbox of that service', async () => {
    const url = (service: number, box: number) => `/p247/service/${service}/correo/${box}/mobileconfig/`;
    const get = (path: string, c?: string) =>
      t.app.inject({ method: 'GET', url: path, headers: { ...(c ? { cookie: c } : {}), 'x-dd-request': '1' } });
    expect((await get(url(id, boxId))).statusCode).toBe(401);
    expect((await get(url(id, 999_999), cookie)).statusCode).toBe(404);
    expect((await get(`/p247/service/${id}/correo/abc/mobileconfig/`, cookie)).statusCode).toBe(404);
    for (const [name, accounts, mail, expected] of [
      ['mc-none', 'disabled', 'read', 404],
      ['mc-area-off', 'read', 'disabled', 404],
      ['mc-read', 'read', 'read', 200],
    ] as const) {
      const user = await buildUser(t.database.db, account, name, {
        'clientes.test': { servicemail: mail, servicemail_accounts: accounts },
      });
      const c = await t.login(account.domainName, user.username, user.password);
      expect((await get(url(id, boxId), c)).statusCode, name).toBe(expected);
    }
    const other = await buildAccount(t.database.db, { domainName: 'ajeno.test' });
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    const otherId = other.resources['ajeno.test'] as number;
    expect((await get(url(id, boxId), otherCookie)).statusCode).toBe(404);
    // a mailbox id of another service under one's own service id
    expect((await get(url(otherId, boxId), otherCookie)).statusCode).toBe(404);
  });
});
