import type { DnsRecord } from '@panel247/contract/dns';
import type { MailAuthData } from '@panel247/contract/mail-auth';
import { MAIL_AUTH_API } from '@panel247/contract/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('DKIM, SPF and DMARC API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let id: number;
  let elsewhere: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        'mail.dkimRetireSeconds': 60,
        // Zones elsewhere are looked up here: nothing answers on this port (an "unknown" at once).
        'registry.resolvers': ['127.0.0.1:9'],
      },
    });
    account = await buildAccount(t.database.db, {
      domainName: 'firmado.test',
      resources: {
        'firmado.test': { hasService: true, hasMail: true },
        'fuera.test': { hasService: true, hasMail: true },
      },
    });
    other = await buildAccount(t.database.db, { domainName: 'ajeno.test' });
    id = account.resources['firmado.test'] as number;
    elsewhere = account.resources['fuera.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    // The first zone is hosted here (its first read makes it); fuera.test never gets one.
    await t.call('GET', `service/${id}/dns/list/`, {}, { cookie });
  });
  afterAll(() => t.close());

  const auth = async (serviceId = id, session = cookie) => {
    const { body, response } = await t.call<MailAuthData>(
      'GET',
      MAIL_AUTH_API.view(serviceId),
      {},
      { cookie: session },
    );
    expect(body.system.errors).toEqual([]);
    expect(response.statusCode).toBe(200);
    return body.data;
  };
  const zone = async () =>
    (await t.call<{ dnss: DnsRecord[] }>('GET', `service/${id}/dns/list/`, {}, { cookie })).body.data.dnss;
  const txtAt = async (zona: string) => (await zone()).filter((r) => r.type === 'TXT' && r.zona === zona);

  it('gives a domain its RSA key at first look, sealed at rest, published in the hosted zone at once', async () => {
    const data = await auth();
    expect(data).toMatchObject({ domain: 'firmado.test', hosted: true, dkim: { rotation: 'idle' } });
    expect(data.dkim.keys).toHaveLength(1);
    const [key] = data.dkim.keys;
    expect(key).toMatchObject({ algorithm: 'rsa', state: 'active', retireAt: null });
    expect(key?.selector).toMatch(/^rsa\d{8}[0-9a-f]{4}$/);
    expect(key?.record).toMatchObject({
      zona: `${key?.selector}._domainkey`,
      name: `${key?.selector}._domainkey.firmado.test`,
      type: 'TXT',
      published: true,
      lookup: 'found',
    });
    expect(key?.record.value).toMatch(
      /^v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA[A-Za-z0-9+/]+=*$/,
    );
    expect((await txtAt(`${key?.selector}._domainkey`)).map((r) => r.value)).toEqual([key?.record.value]);
    const rows = await t.database.db.selectFrom('mail_dkim_keys').selectAll().where('service_id', '=', id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.private_key).toMatch(/^v1\./);
    // a second look makes no second key
    expect((await auth()).dkim.keys.map((k) => k.selector)).toEqual([key?.selector]);
  });

  it('shows the default SPF (with the provider’s include) and DMARC (p=none with a report address)', async () => {
    const data = await auth();
    expect(data.spf).toMatchObject({
      includes: ['spf.panel247.test'],
      record: { zona: '', value: 'v=spf1 mx a include:spf.panel247.test ~all', published: true, lookup: 'found' },
    });
    expect(data.dmarc).toMatchObject({
      policy: 'none',
      pct: 100,
      rua: ['dmarc-reports@panel247.test'],
      record: { zona: '_dmarc', name: '_dmarc.firmado.test', published: true, lookup: 'found' },
    });
  });

  it('writes the guided form’s SPF and DMARC into the zone, replacing the records it owns', async () => {
    const { body } = await t.call<MailAuthData>(
      'POST',
      MAIL_AUTH_API.policy(id),
      {
        dmarcPolicy: 'quarantine',
        dmarcPct: '50',
        dmarcRua: ['Informes@Firmado.test', 'dmarc@reports.example.org', ''],
        spfIncludes: ['_spf.google.com', 'spf.protection.outlook.com'],
      },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    expect(body.system.info).toHaveLength(1);
    expect(body.data.dmarc).toMatchObject({
      policy: 'quarantine',
      pct: 50,
      rua: ['informes@firmado.test', 'dmarc@reports.example.org'],
    });
    expect(body.data.spf.includes).toEqual(['_spf.google.com', 'spf.protection.outlook.com']);
    expect((await txtAt('')).map((r) => r.value)).toEqual([
      'v=spf1 mx a include:_spf.google.com include:spf.protection.outlook.com ~all',
    ]);
    expect((await txtAt('_dmarc')).map((r) => r.value)).toEqual([
      'v=DMARC1; p=quarantine; pct=50; rua=mailto:informes@firmado.test,mailto:dmarc@reports.example.org',
    ]);
  });

  it('refuses a form that would make an invalid record, field by field', async () => {
    const { body, response } = await t.call(
      'POST',
      MAIL_AUTH_API.policy(id),
      { dmarcPolicy: 'maybe', dmarcPct: '101', dmarcRua: 'not an address', spfIncludes: 'bad host!' },
      { cookie },
    );
    expect(response.statusCode).toBe(400);
    expect([...body.system.inputs].sort()).toEqual(['dmarcPct', 'dmarcPolicy', 'dmarcRua', 'spfIncludes']);
  });

  it('checks SPF, DMARC and DKIM records typed in the DNS view with the same rules', async () => {
    const create = (zona: string, value: string) =>
      t.call('POST', `service/${id}/dns/create/`, { type: 'TXT', zona, value, ttl: '0', priority: '0' }, { cookie });
    expect((await create('correo', 'v=spf1 mx bogus:thing -all')).response.statusCode).toBe(400);
    expect((await create('_dmarc.correo', 'v=DMARC1; p=maybe')).response.statusCode).toBe(400);
    expect((await create('_dmarc.correo', 'v=DMARC1; p=none; rua=dmarc@example.org')).response.statusCode).toBe(400);
    expect((await create('sel._domainkey', 'v=DKIM1; k=dsa; p=AAAA')).response.statusCode).toBe(400);
    expect((await create('correo', 'v=spf1 a:mail.example.org ip4:192.0.2.0/24 -all')).response.statusCode).toBe(200);
    expect((await create('_dmarc.correo', 'v=DMARC1; p=reject; pct=10')).response.statusCode).toBe(200);
  });

  it('rotates in one action; the old selector signs no more and is withdrawn after the delay', async () => {
    const before = (await auth()).dkim.keys[0];
    const rotated = await t.call<MailAuthData>('POST', MAIL_AUTH_API.rotate(id), {}, { cookie });
    expect(rotated.body.system.errors).toEqual([]);
    const keys = rotated.body.data.dkim.keys;
    // The zone is served from the panel (no DNS server here): the new record "resolves" once it is
    // in the zone, so signing switched at once; the old key retires for the configured minute.
    expect(keys.map((k) => `${k.selector === before?.selector ? 'old' : 'new'} ${k.state}`)).toEqual([
      'old retiring',
      'new active',
    ]);
    expect(rotated.body.data.dkim.rotation).toBe('withdrawing');
    expect(keys[0]?.retireAt).toBe((keys[1]?.activatedAt ?? 0) + 60);
    expect((await t.call('POST', MAIL_AUTH_API.rotate(id), {}, { cookie })).response.statusCode).toBe(409);
    expect(await txtAt(`${before?.selector}._domainkey`)).toHaveLength(1);

    t.clock.advance(61);
    const after = await auth();
    expect(after.dkim.rotation).toBe('idle');
    expect(after.dkim.keys.map((k) => k.selector)).toEqual([keys[1]?.selector]);
    expect(await txtAt(`${before?.selector}._domainkey`)).toEqual([]);
    expect(await txtAt(`${keys[1]?.selector}._domainkey`)).toHaveLength(1);
  });

  it('puts a DKIM record back that a restore of the zone’s defaults took away', async () => {
    const [key] = (await auth()).dkim.keys;
    expect((await t.call('GET', `service/${id}/dns/restore/`, {}, { cookie })).response.statusCode).toBe(200);
    expect(await txtAt(`${key?.selector}._domainkey`)).toEqual([]);
    const again = await auth();
    expect(again.dkim.keys[0]?.record).toMatchObject({ published: true, lookup: 'found' });
    expect((await txtAt(`${key?.selector}._domainkey`)).map((r) => r.value)).toEqual([key?.record.value]);
  });

  it('for a zone elsewhere shows the exact records to publish there and whether the resolvers find them', async () => {
    const data = await auth(elsewhere);
    expect(data.hosted).toBe(false);
    expect(data.dkim.keys).toHaveLength(1);
    expect(data.dkim.keys[0]?.record).toMatchObject({ published: false, lookup: 'unknown' });
    expect(data.dkim.keys[0]?.record.name).toMatch(/^rsa\d+[0-9a-f]{4}\._domainkey\.fuera\.test$/);
    expect(data.spf.record).toMatchObject({ name: 'fuera.test', value: 'v=spf1 mx a include:spf.panel247.test ~all' });
    const saved = await t.call<MailAuthData>(
      'POST',
      MAIL_AUTH_API.policy(elsewhere),
      { dmarcPolicy: 'reject', dmarcPct: '100', dmarcRua: '', spfIncludes: 'spf.example.net' },
      { cookie },
    );
    expect(saved.body.system.errors).toEqual([]);
    expect(saved.body.data.dmarc.record.value).toBe('v=DMARC1; p=reject');
    expect((await auth(elsewhere)).spf.record.value).toBe('v=spf1 mx a include:spf.example.net ~all');
    // A rotation waits for the new record to be found before signing switches.
    const rotated = await t.call<MailAuthData>('POST', MAIL_AUTH_API.rotate(elsewhere), {}, { cookie });
    expect(rotated.body.data.dkim.rotation).toBe('publishing');
    expect(rotated.body.data.dkim.keys.map((k) => k.state)).toEqual(['active', 'pending']);
  });

  it('makes one key when several first looks come at once', async () => {
    const fresh = await buildAccount(t.database.db, {
      domainName: 'a-la-vez.test',
      resources: { 'a-la-vez.test': { hasService: true, hasMail: true } },
    });
    const freshId = fresh.resources['a-la-vez.test'] as number;
    const freshCookie = await t.login(fresh.domainName, fresh.username, fresh.password);
    await t.call('GET', `service/${freshId}/dns/list/`, {}, { cookie: freshCookie });
    const looks = await Promise.all([1, 2, 3].map(() => auth(freshId, freshCookie)));
    const last = await auth(freshId, freshCookie);
    expect(last.dkim.keys).toHaveLength(1);
    for (const look of looks) expect(look.dkim.keys.length).toBeGreaterThanOrEqual(1);
    const records = (
      await t.call<{ dnss: DnsRecord[] }>('GET', `service/${freshId}/dns/list/`, {}, { cookie: freshCookie })
    ).body.data.dnss.filter((r) => r.zona.endsWith('._domainkey'));
    expect(records.map((r) => r.zona)).toEqual([`${last.dkim.keys[0]?.selector}._domainkey`]);
  });

  it('follows servicemail (and service_dnszone for a hosted zone); another account’s service is not found', async () => {
    expect(
      (await t.call('GET', MAIL_AUTH_API.view(other.resources['ajeno.test'] as number), {}, { cookie })).response
        .statusCode,
    ).toBe(404);
    const reader = await buildUser(t.database.db, account, 'dkim-reader', {
      'firmado.test': { ...allKeys('disabled'), servicemail: 'read', service_dnszone: 'write' },
    });
    const mailOnly = await buildUser(t.database.db, account, 'dkim-mail', {
      'firmado.test': { ...allKeys('disabled'), servicemail: 'write', service_dnszone: 'read' },
      'fuera.test': { ...allKeys('disabled'), servicemail: 'write' },
    });
    const none = await buildUser(t.database.db, account, 'dkim-none', {
      'firmado.test': { ...allKeys('disabled'), service: 'read' },
    });
    const readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const mailCookie = await t.login(account.domainName, mailOnly.username, mailOnly.password);
    const noneCookie = await t.login(account.domainName, none.username, none.password);
    expect((await auth(id, readerCookie)).hosted).toBe(true);
    const policy = { dmarcPolicy: 'none', dmarcPct: '100' };
    expect((await t.call('POST', MAIL_AUTH_API.policy(id), policy, { cookie: readerCookie })).response.statusCode).toBe(
      403,
    );
    expect((await t.call('POST', MAIL_AUTH_API.policy(id), policy, { cookie: mailCookie })).response.statusCode).toBe(
      403,
    );
    expect((await t.call('POST', MAIL_AUTH_API.rotate(id), {}, { cookie: mailCookie })).response.statusCode).toBe(403);
    // a zone elsewhere is not touched: the mail right is enough
    expect(
      (await t.call('POST', MAIL_AUTH_API.policy(elsewhere), policy, { cookie: mailCookie })).response.statusCode,
    ).toBe(200);
    expect((await t.call('GET', MAIL_AUTH_API.view(id), {}, { cookie: noneCookie })).response.statusCode).toBe(404);
  });
});
