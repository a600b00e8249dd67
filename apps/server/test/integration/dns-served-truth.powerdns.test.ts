import type { DnsRecord } from '@panel247/contract/dns';
import type { DnsImportData } from '@panel247/contract/dns-import';
import type { MailAuthData } from '@panel247/contract/mail-auth';
import { MAIL_AUTH_API } from '@panel247/contract/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

type List = { dnss: DnsRecord[]; total: number };

/**
 * What the panel lists and exports is what PowerDNS serves: one TTL per RRset (name and type),
 * the same in the list, the BIND export and `dig`, after a create, an edit, an import and the
 * normalisation of records stored with several TTLs; and one SPF record at a name.
 */
describe.each(DATABASE_KINDS)('DNS records as a real PowerDNS serves them (panel on %s)', (kind) => {
  let pdns: PowerDns;
  let t: TestApp;
  let cookie: string;
  let serviceId: number;
  const zone = `served-pdns-${kind}.test`;

  beforeAll(async () => {
    pdns = await startPowerDns();
    t = await buildTestApp(kind, {
      config: {
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': pdns.apiUrl,
        'dns.powerdnsApiKey': pdns.apiKey,
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        'dns.defaultTtl': 3600,
        'dns.webIpv4': '192.0.2.10',
        // The mail view asks what this PowerDNS serves.
        'registry.resolvers': [`127.0.0.1:${pdns.dnsPort}`],
      },
    });
    const account = await buildAccount(t.database.db, {
      domainName: zone,
      resources: { [zone]: { hasService: true, hasMail: true } },
    });
    serviceId = account.resources[zone] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await pdns?.stop();
  });

  const list = async () => (await t.call<List>('GET', `service/${serviceId}/dns/list/`, {}, { cookie })).body.data.dnss;
  const exported = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/p247/service/${serviceId}/dns/export/`,
        headers: { cookie, 'x-dd-request': '1' },
      })
    ).body;

  /** The TTL of each record of an RRset, as the panel lists it, as its export writes it, and as dig answers. */
  async function ttls(zona: string, type: string) {
    const owner = zona ? `${zona}.${zone}` : zone;
    const listed = (await list())
      .filter((r) => r.zona === zona && r.type === type)
      .map((r) => `${r.value} ${r.ttl || 3600}`)
      .sort();
    const inExport = (await exported())
      .split('\n')
      .map((line) => line.split('\t'))
      .filter((fields) => fields[0] === (zona || '@') && fields[3] === type)
      .map((fields) => `${fields[4]} ${fields[1]}`)
      .sort();
    const served = (await pdns.dig(owner, type, ['+noall', '+answer']))
      .map((line) => line.split(/\s+/))
      .map((fields) => `${fields.slice(4).join(' ')} ${fields[1]}`)
      .sort();
    return { listed, inExport, served };
  }

  it('an import’s TTL is the RRset’s in the list, the export and dig; so is an edit’s', async () => {
    const before = await ttls('', 'A');
    expect(before.served).toEqual(['192.0.2.10 3600']);

    const { body } = await t.call<DnsImportData>(
      'POST',
      `service/${serviceId}/dns/import/`,
      { text: `$ORIGIN ${zone}.\n@ 600 A 192.0.2.80\n`, mode: 'merge', language: 'en' },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    expect(body.data.changed.map((r) => [r.value, r.before.ttl, r.ttl])).toEqual([['192.0.2.10', 0, 600]]);
    const imported = await ttls('', 'A');
    expect(imported.served).toEqual(['192.0.2.10 600', '192.0.2.80 600']);
    expect(imported.listed).toEqual(imported.served);
    expect(imported.inExport).toEqual(imported.served);

    const record = (await list()).find((r) => r.zona === '' && r.type === 'A' && r.value === '192.0.2.80');
    const saved = await t.call<{ dns: DnsRecord; rrsetRetimed?: number }>(
      'POST',
      `service/${serviceId}/dns/${record?.id}/save/`,
      { value: '192.0.2.80', ttl: '1800', priority: '0' },
      { cookie },
    );
    expect(saved.body.data.rrsetRetimed).toBe(1);
    const edited = await ttls('', 'A');
    expect(edited.served).toEqual(['192.0.2.10 1800', '192.0.2.80 1800']);
    expect(edited.listed).toEqual(edited.served);
    expect(edited.inExport).toEqual(edited.served);
  });

  it('records stored with several TTLs get the one PowerDNS serves, and keep being served so', async () => {
    const create = (value: string, ttl: string) =>
      t.call('POST', `service/${serviceId}/dns/create/`, { type: 'A', zona: 'legacy', value, ttl }, { cookie });
    await create('192.0.2.1', '86400');
    await create('192.0.2.2', '86400');
    // As the panel stored them before an RRset had one TTL: each record its own.
    await t.database.db
      .updateTable('dns_records')
      .set({ ttl: 600 })
      .where('service_id', '=', serviceId)
      .where('value', '=', '192.0.2.2')
      .execute();
    await t.services.dns.sync(zone, { dryRun: false });
    const served = await ttls('legacy', 'A');
    expect(served.served).toEqual(['192.0.2.1 600', '192.0.2.2 600']);
    expect(served.listed).toEqual(served.served);
    expect(served.inExport).toEqual(served.served);
  });

  it('serves one SPF record at the apex: a second is refused, an import replaces it when asked', async () => {
    const spf = async () => (await pdns.dig(zone, 'TXT')).filter((text) => /^"v=spf1/i.test(text));
    expect(await spf()).toHaveLength(1);
    const second = await t.call(
      'POST',
      `service/${serviceId}/dns/create/`,
      { type: 'TXT', zona: '', value: 'v=spf1 -all', ttl: '0', priority: '0' },
      { cookie },
    );
    expect(second.response.statusCode).toBe(400);
    const text = `$ORIGIN ${zone}.\n@ TXT "v=spf1 include:_spf.other.example -all"\n`;
    const skipped = await t.call<DnsImportData>(
      'POST',
      `service/${serviceId}/dns/import/`,
      { text, mode: 'merge' },
      { cookie },
    );
    expect(skipped.body.data.conflicts.map((c) => c.resolution)).toEqual(['skip']);
    expect(await spf()).toHaveLength(1);
    await t.call('POST', `service/${serviceId}/dns/import/`, { text, mode: 'merge', conflicts: 'replace' }, { cookie });
    expect(await spf()).toEqual(['"v=spf1 include:_spf.other.example -all"']);
  });

  it('the mail view flags what PowerDNS serves: two SPF records (written behind the panel’s back)', async () => {
    const view = async () =>
      (await t.call<MailAuthData>('GET', MAIL_AUTH_API.view(serviceId), {}, { cookie })).body.data;
    expect((await view()).spf.record).toMatchObject({ lookup: 'found' });
    expect((await view()).spf.record.problem).toBeUndefined();
    const [spf] = await t.database.db
      .selectFrom('dns_records')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('zona', '=', '')
      .where('type', '=', 'TXT')
      .execute();
    await t.database.db
      .insertInto('dns_records')
      .values({ ...spf, id: undefined, value: 'v=spf1 a -all' } as never)
      .execute();
    await t.services.dns.sync(zone, { dryRun: false });
    expect((await pdns.dig(zone, 'TXT')).filter((text) => text.startsWith('"v=spf1'))).toHaveLength(2);
    expect((await view()).spf.record).toMatchObject({ lookup: 'found', problem: 'two_records' });
  });
});
