import type { DnsRecord } from '@panel247/contract/dns';
import type { DnsImportData, DnsImportOptionsData } from '@panel247/contract/dns-import';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { eventually } from '../support/retrying.ts';
import { ScriptedDnsDriver } from '../support/scripted-dns-driver.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

type List = { dnss: DnsRecord[]; total: number };

const FILE = `; a zone from another provider
$ORIGIN import.test.
$TTL 3600
@ IN SOA ns1.old-provider.net. hostmaster.import.test. ( 2026112601 10800 3600 604800 3600 )
@        IN NS    ns1.old-provider.net.
@        IN A     192.0.2.10
@        IN MX    10 mail
mail     IN A     192.0.2.25
shop 600 IN A     198.51.100.5
blog     IN CNAME www
long     IN TXT   ( "${'x'.repeat(255)}" "${'y'.repeat(255)}" "${'z'.repeat(90)}" )
_sip._tcp IN SRV  10 60 5060 sip.import.test.
@        IN CAA   0 issue "letsencrypt.org"
1        IN PTR   host.import.test.
odd  300 IN A     198.51.100.6
`;

/** The provider's default records, fixed here so the counts below do not follow the product's set. */
const DEFAULTS = [
  { zona: '', type: 'NS', value: '{ns}', eliminable: false },
  { zona: '', type: 'A', value: '{web_ipv4}' },
  { zona: '', type: 'AAAA', value: '{web_ipv6}' },
  { zona: 'www', type: 'CNAME', value: '{domain}' },
  { zona: '', type: 'MX', priority: 10, value: 'mail.{domain}' },
  { zona: 'mail', type: 'A', value: '{mail_ipv4}' },
  { zona: '', type: 'TXT', value: 'v=spf1 mx a ~all' },
];

const summary = (records: { zona: string; type: string; value: string }[]) =>
  records.map((r) => `${r.zona || '@'} ${r.type} ${r.value.length > 40 ? `${r.value.slice(0, 10)}…` : r.value}`);

describe.each(DATABASE_KINDS)('DNS zone import on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let serviceId: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: { 'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'], 'dns.defaultRecords': DEFAULTS },
    });
    account = await buildAccount(t.database.db, {
      domainName: 'import.test',
      resources: { 'import.test': { hasDomain: true, hasService: true } },
    });
    serviceId = account.resources['import.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const list = async () => (await t.call<List>('GET', `service/${serviceId}/dns/list/`, {}, { cookie })).body.data.dnss;
  const call = (step: 'preview' | 'apply', params: Record<string, string>, c = cookie) =>
    t.call<DnsImportData>(
      'POST',
      `service/${serviceId}/dns/import/${step === 'preview' ? 'preview/' : ''}`,
      { language: 'en', ...params },
      { cookie: c },
    );
  const restore = () => t.call('POST', `service/${serviceId}/dns/restore/`, {}, { cookie });

  it('previews a merge: what is added, changed and refused (with line and reason), SOA and NS kept; nothing changes', async () => {
    await restore();
    const before = await list();
    const { response, body } = await call('preview', { text: FILE, mode: 'merge' });
    expect(response.statusCode).toBe(200);
    const data = body.data;
    expect(summary(data.added)).toEqual([
      'shop A 198.51.100.5',
      'blog CNAME www.import.test',
      'long TXT xxxxxxxxxx…',
      '_sip._tcp SRV 60 5060 sip.import.test',
      '@ CAA 0 issue "letsencrypt.org"',
    ]);
    expect(data.added[2]?.value).toHaveLength(600);
    expect(data.changed).toEqual([]);
    expect(data.unchanged).toBe(3);
    expect(data.removed).toEqual([]);
    expect(data.refused).toEqual([
      { line: 14, text: '1        IN PTR   host.import.test.', reason: 'The panel does not support PTR records' },
      {
        line: 15,
        text: 'odd  300 IN A     198.51.100.6',
        reason: 'TTL 300 is not supported: use 600, 1800, 3600, 21600, 43200, 86400 or the zone’s TTL',
      },
    ]);
    expect(data.kept.map((k) => [k.line, k.reason])).toEqual([
      [4, 'The SOA is the provider’s and stays'],
      [5, 'The name servers at the root are the provider’s and stay'],
    ]);
    expect(await list()).toEqual(before);
  });

  it('applies a merge in one change, then finds nothing left to do', async () => {
    await restore();
    const { body } = await call('apply', { text: FILE, mode: 'merge' });
    expect(body.system.valid).toBe(true);
    expect(body.system.info).toEqual(['Zone imported']);
    expect(body.data.applied).toBe(true);
    const records = await list();
    expect(records.find((r) => r.zona === 'shop')).toMatchObject({ type: 'A', ttl: 600, value: '198.51.100.5' });
    expect(records.find((r) => r.zona === 'long')?.value).toHaveLength(600);
    expect(records).toHaveLength(8 + 5);
    const again = await call('apply', { text: FILE, mode: 'merge' });
    expect(again.body.data.applied).toBe(false);
    expect(again.body.system.info).toEqual(['The file changes nothing in the zone']);
    expect(await list()).toEqual(records);
  });

  it('replace removes what the file lacks but the provider’s name servers; a changed TTL is a change; without $TTL the last TTL holds', async () => {
    await restore();
    const text = '$ORIGIN import.test.\n@ 600 A 192.0.2.10\nnew TXT "hello" " world"\n';
    const preview = await call('preview', { text, mode: 'replace' });
    expect(summary(preview.body.data.added)).toEqual(['new TXT hello world']);
    expect(preview.body.data.changed).toMatchObject([{ zona: '', type: 'A', ttl: 600, before: { ttl: 0 } }]);
    expect(summary(preview.body.data.removed).sort()).toEqual([
      '@ AAAA 2001:db8::10',
      '@ MX mail.import.test',
      '@ TXT v=spf1 mx a ~all',
      'mail A 192.0.2.25',
      'www CNAME import.test',
    ]);
    const { body } = await call('apply', { text, mode: 'replace' });
    expect(body.system.errors).toEqual([]);
    expect(body.data.applied).toBe(true);
    expect((await list()).map((r) => `${r.zona || '@'} ${r.type} ${r.ttl} ${r.value}`)).toEqual([
      '@ A 600 192.0.2.10',
      '@ NS 0 ns1.provider.test',
      '@ NS 0 ns2.provider.test',
      'new TXT 600 hello world',
    ]);
  });

  it('the zone’s own export imports back with nothing to change', async () => {
    await restore();
    await call('apply', { text: FILE, mode: 'merge' });
    await t.call(
      'POST',
      `service/${serviceId}/dns/create/`,
      { type: 'ANAME', zona: 'flat', value: 'lb.example.org', ttl: '0', priority: '0' },
      { cookie },
    );
    const exported = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${serviceId}/dns/export/`,
      headers: { cookie, 'x-dd-request': '1' },
    });
    const { body } = await call('preview', { text: exported.body, mode: 'replace' });
    expect(body.data.added).toEqual([]);
    expect(body.data.changed).toEqual([]);
    expect(body.data.removed).toEqual([]);
    expect(body.data.refused).toEqual([]);
    expect(body.data.unchanged).toBe((await list()).length - 2);
  });

  it('refuses an empty text, an unknown mode, a file too large, too many records, with the field named', async () => {
    const empty = await call('preview', { text: '  \n', mode: 'merge' });
    expect(empty.body.system).toMatchObject({ valid: false, inputs: ['text'] });
    const mode = await call('preview', { text: 'a A 192.0.2.1', mode: 'overwrite' });
    expect(mode.body.system).toMatchObject({ inputs: ['mode'], errors: ['Choose merge or replace'] });
    const large = await call('preview', { text: `; ${'x'.repeat(2_000_001)}`, mode: 'merge' });
    expect(large.body.system).toMatchObject({
      inputs: ['text'],
      errors: ['The zone file is too large (2 MB at most)'],
    });
    const many = Array.from({ length: 20_001 }, (_, i) => `h${i} A 192.0.2.1`).join('\n');
    const tooMany = await call('preview', { text: many, mode: 'merge' });
    expect(tooMany.body.system).toMatchObject({
      inputs: ['text'],
      errors: ['The zone file has too many records (20,000 at most)'],
    });
  });

  it('AXFR is off unless the provider turns it on: the options say so and the call is refused', async () => {
    const options = await t.call<DnsImportOptionsData>(
      'GET',
      `service/${serviceId}/dns/import/options/`,
      {},
      { cookie },
    );
    expect(options.body.data).toEqual({ axfr: false, maxText: 2_000_000, maxRecords: 20_000 });
    const { response, body } = await t.call(
      'POST',
      `service/${serviceId}/dns/import/axfr/`,
      { server: 'ns1.example.net', language: 'en' },
      { cookie },
    );
    expect(response.statusCode).toBe(403);
    expect(body.system.errors).toEqual(['Your provider does not allow reading a zone by AXFR']);
  });

  it.each(['disabled', 'read'] as const)(
    'a user with service_dnszone %s can neither preview nor apply, and nothing changes',
    async (level) => {
      await restore();
      const before = await list();
      const user = await buildUser(t.database.db, account, `import-${level}`, {
        'import.test': { ...allKeys('read'), service_dnszone: level },
      });
      const c = await t.login(account.domainName, user.username, user.password);
      const status = level === 'disabled' ? 404 : 403;
      expect((await call('preview', { text: FILE, mode: 'replace' }, c)).response.statusCode).toBe(status);
      expect((await call('apply', { text: FILE, mode: 'replace' }, c)).response.statusCode).toBe(status);
      for (const path of ['options/', 'axfr/']) {
        const { response } = await t.call(
          'POST',
          `service/${serviceId}/dns/import/${path}`,
          { server: 'x.example' },
          { cookie: c },
        );
        expect(response.statusCode, path).toBe(status);
      }
      expect(await list()).toEqual(before);
    },
  );
});

describe.each(DATABASE_KINDS)('DNS zone import by AXFR, where the provider allows it (%s)', (kind) => {
  let t: TestApp;
  let cookie: string;
  let serviceId: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'dns.importAxfr': 'on' } });
    const account = await buildAccount(t.database.db, { domainName: `axfr-${kind}.test` });
    serviceId = account.resources[`axfr-${kind}.test`] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t?.close());

  const axfr = (server: string) =>
    t.call('POST', `service/${serviceId}/dns/import/axfr/`, { server, language: 'en' }, { cookie });

  it('says it is offered', async () => {
    const { body } = await t.call<DnsImportOptionsData>(
      'GET',
      `service/${serviceId}/dns/import/options/`,
      {},
      { cookie },
    );
    expect(body.data.axfr).toBe(true);
  });

  it.each([
    'ns1 example',
    'ns1.example.net:99999',
    '[ns1.example.net]:53',
    'http://ns1.example.net/',
    '-p',
    'localhost',
  ])('refuses %s as a name server, under the field', async (server) => {
    const { response, body } = await axfr(server);
    expect(response.statusCode).toBe(400);
    expect(body.system).toMatchObject({
      inputs: ['server'],
      errors: ['Invalid name server: a host name or an IP address'],
    });
  });

  it.each(['127.0.0.1', '10.1.2.3:5353', '[::1]:53', '::ffff:127.0.0.1', '169.254.169.254'])(
    'never connects to %s: loopback, private and link-local addresses are refused',
    async (server) => {
      const { response, body } = await axfr(server);
      expect(response.statusCode).toBe(400);
      expect(body.system).toMatchObject({
        inputs: ['server'],
        errors: ['That name server is on a private network: the panel does not query it'],
      });
    },
  );
});

describe.each(DATABASE_KINDS)('DNS zone import is all or nothing on the DNS server (%s)', (kind) => {
  let driver: ScriptedDnsDriver;
  let t: TestApp;
  let cookie: string;
  let serviceId: number;
  const zone = `import-publish-${kind}.test`;

  beforeAll(async () => {
    driver = new ScriptedDnsDriver();
    t = await buildTestApp(kind, { dnsDriver: driver, config: { 'dns.republishSeconds': 0 } });
    const account = await buildAccount(t.database.db, { domainName: zone });
    serviceId = account.resources[zone] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async () => (await t.call<List>('GET', `service/${serviceId}/dns/list/`, {}, { cookie })).body.data.dnss;
  const apply = (text: string, mode: string) =>
    t.call<DnsImportData>('POST', `service/${serviceId}/dns/import/`, { text, mode, language: 'en' }, { cookie });
  const text = Array.from({ length: 50 }, (_, i) => `host${i} A 198.51.100.${i}`).join('\n');

  it('a refused import leaves the zone as it was; one the server cannot take now is kept and published once it answers', async () => {
    const before = await list();
    const served = driver.contents(zone, `${zone}.`, 'A');
    driver.script('refuse');
    const refused = await apply(text, 'replace');
    expect(refused.response.statusCode).toBe(502);
    expect(refused.body.system.valid).toBe(false);
    expect(await list()).toEqual(before);
    expect(driver.contents(zone, `${zone}.`, 'A')).toEqual(served);
    expect(driver.contents(zone, `host1.${zone}.`, 'A')).toEqual([]);

    driver.script('down');
    const kept = await apply('down1 A 198.51.100.202\n', 'merge');
    expect(kept.response.statusCode).toBe(200);
    expect(kept.body.system.info).toEqual([
      'Done in the panel. The DNS server has not confirmed it yet: it will be published as soon as the server answers.',
    ]);
    expect((await list()).some((r) => r.zona === 'down1')).toBe(true);
    // The zone's job is tried again (with backoff) and the server answers this time.
    await eventually(() => driver.contents(zone, `down1.${zone}.`, 'A').length > 0);
    expect(driver.contents(zone, `down1.${zone}.`, 'A')).toEqual(['198.51.100.202']);
  });

  it('a server that does not answer in time: the import is kept, said not confirmed yet, and published later', async () => {
    driver.script('late');
    const { body } = await apply('late1 A 198.51.100.201\n', 'merge');
    expect(body.system.valid).toBe(true);
    expect(body.system.info).toEqual([
      'Done in the panel. The DNS server has not confirmed it yet: it will be published as soon as the server answers.',
    ]);
    expect((await list()).some((r) => r.zona === 'late1')).toBe(true);
    driver.wake();
    await t.services.dns.publishZone({ serviceId, name: zone });
    expect(driver.contents(zone, `late1.${zone}.`, 'A')).toEqual(['198.51.100.201']);
  });

  it('publishes the whole import as one change to the server', async () => {
    const sent = driver.received;
    const { body } = await apply(text, 'merge');
    expect(body.system.info).toEqual(['Zone imported']);
    expect(driver.received - sent).toBe(1);
    expect(driver.contents(zone, `host7.${zone}.`, 'A')).toEqual(['198.51.100.7']);
  });

  it('an import and record changes at the same moment run one after the other: the server ends as the database', async () => {
    const create = (zona: string) =>
      t.call(
        'POST',
        `service/${serviceId}/dns/create/`,
        { type: 'A', zona, value: '198.51.100.250', ttl: '0', priority: '0' },
        { cookie },
      );
    const answers = await Promise.all([
      create('racer1'),
      apply(text, 'replace'),
      create('racer2'),
      apply('racer3 A 198.51.100.251\n', 'merge'),
    ]);
    expect(answers.map((a) => a.body.system.valid)).toEqual([true, true, true, true]);
    expect(await t.services.dns.sync(zone, { dryRun: true })).toEqual([{ zone, missing: [], extra: [], changed: [] }]);
  });
});
