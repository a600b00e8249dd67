import type { DnsImportData } from '@panel247/contract/dns-import';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/** A zone file as another provider exports it: every type the panel supports, and lines it refuses. */
function zoneFile(zone: string, long: string) {
  return `; ${zone} exported elsewhere
$ORIGIN ${zone}.
$TTL 1h
@   IN SOA ns1.old-provider.net. hostmaster.${zone}. (
        2026112601 ; serial
        3h 1h 1w 1h )
@       IN NS    ns1.old-provider.net.
@       IN A     203.0.113.10
@       IN AAAA  2001:db8::10
@       IN MX    10 mail
mail    IN A     203.0.113.25
www     IN CNAME @
flat    IN ALIAS mail.${zone}.
_sip._tcp 1800 IN SRV 20 20 5060 sip.example.org.
@       IN CAA   0 issue "letsencrypt.org"
delegated IN NS  ns.example.org.
long    IN TXT   ( "${long.slice(0, 255)}"
                   "${long.slice(255)}" ) ; one text in two strings
esc     IN TXT   "say \\"hi\\"; semi\\059colon"
$ORIGIN sub.${zone}.
deep    600 IN A 203.0.113.30
ptr     IN PTR   host.example.org.
`;
}

describe.each(DATABASE_KINDS)('DNS zone import served by a real PowerDNS (panel on %s)', (kind) => {
  let pdns: PowerDns;
  let t: TestApp;
  let cookie: string;
  let serviceId: number;
  const zone = `import-pdns-${kind}.test`;
  const long = `v=${'x'.repeat(598)}`;

  beforeAll(async () => {
    pdns = await startPowerDns();
    t = await buildTestApp(kind, {
      config: {
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': pdns.apiUrl,
        'dns.powerdnsApiKey': pdns.apiKey,
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        'dns.defaultTtl': 3600,
      },
    });
    const account = await buildAccount(t.database.db, { domainName: zone });
    serviceId = account.resources[zone] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await pdns?.stop();
  });

  const importZone = (text: string, mode: 'merge' | 'replace') =>
    t.call<DnsImportData>('POST', `service/${serviceId}/dns/import/`, { text, mode, language: 'en' }, { cookie });

  it('after a replace import, dig answers the imported records, SOA and NS stay the provider’s', async () => {
    const { body } = await importZone(zoneFile(zone, long), 'replace');
    expect(body.system.errors).toEqual([]);
    expect(body.data.applied).toBe(true);
    expect(body.data.refused.map((r) => [r.line, r.reason])).toEqual([[22, 'The panel does not support PTR records']]);
    expect(body.data.kept.map((r) => r.line)).toEqual([4, 7]);

    expect(await pdns.dig(zone, 'A')).toEqual(['203.0.113.10']);
    expect(await pdns.dig(zone, 'AAAA')).toEqual(['2001:db8::10']);
    expect(await pdns.dig(zone, 'MX')).toEqual([`10 mail.${zone}.`]);
    expect(await pdns.dig(`mail.${zone}`, 'A')).toEqual(['203.0.113.25']);
    expect(await pdns.dig(`www.${zone}`, 'CNAME')).toEqual([`${zone}.`]);
    expect(await pdns.dig(`flat.${zone}`, 'A')).toEqual(['203.0.113.25']);
    expect(await pdns.dig(`_sip._tcp.${zone}`, 'SRV')).toEqual(['20 20 5060 sip.example.org.']);
    expect(await pdns.dig(zone, 'CAA')).toEqual(['0 issue "letsencrypt.org"']);
    expect(await pdns.dig(`delegated.${zone}`, 'NS', ['+noall', '+authority'])).toEqual([
      expect.stringMatching(/\s+NS\s+ns\.example\.org\.$/),
    ]);
    expect(await pdns.dig(`long.${zone}`, 'TXT')).toEqual([
      `"${long.slice(0, 255)}" "${long.slice(255, 510)}" "${long.slice(510)}"`,
    ]);
    expect(await pdns.dig(`esc.${zone}`, 'TXT')).toEqual(['"say \\"hi\\"; semi;colon"']);
    expect(await pdns.dig(`deep.sub.${zone}`, 'A')).toEqual(['203.0.113.30']);
    expect((await pdns.dig(zone, 'NS')).sort()).toEqual(['ns1.provider.test.', 'ns2.provider.test.']);
    expect((await pdns.dig(zone, 'SOA'))[0]).toMatch(/^ns1\.provider\.test\. hostmaster\./);
    // The defaults' SPF TXT went with the replace.
    expect(await pdns.dig(zone, 'TXT')).toEqual([]);
    expect(await t.services.dns.sync(zone, { dryRun: true })).toEqual([{ zone, missing: [], extra: [], changed: [] }]);
  });

  it('a merge adds beside what is there; the same file again changes nothing', async () => {
    const { body } = await importZone(`mail IN A 203.0.113.25\nextra 600 IN A 203.0.113.40\n`, 'merge');
    expect(body.data.added.map((r) => r.zona)).toEqual(['extra']);
    expect(body.data.unchanged).toBe(1);
    expect(await pdns.dig(`extra.${zone}`, 'A')).toEqual(['203.0.113.40']);
    expect(await pdns.dig(`mail.${zone}`, 'A')).toEqual(['203.0.113.25']);
    const again = await importZone(`extra 600 IN A 203.0.113.40\n`, 'merge');
    expect(again.body.data.applied).toBe(false);
  });
});

describe('DNS zone import read by AXFR from another PowerDNS (panel on SQLite)', () => {
  let panelDns: PowerDns;
  let oldDns: PowerDns;
  let t: TestApp;
  let cookie: string;
  let serviceId: number;
  const zone = 'axfr-pdns.test';

  beforeAll(async () => {
    [panelDns, oldDns] = await Promise.all([startPowerDns(), startPowerDns()]);
    // The zone as the old provider serves it (PowerDNS allows AXFR from loopback by default).
    const rrset = (name: string, type: string, contents: string[], ttl = 3600) => ({
      name: `${name}${zone}.`,
      type,
      ttl,
      changetype: 'REPLACE',
      records: contents.map((content) => ({ content, disabled: false })),
    });
    const created = await fetch(`${oldDns.apiUrl}/api/v1/servers/localhost/zones`, {
      method: 'POST',
      headers: { 'x-api-key': oldDns.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `${zone}.`,
        kind: 'Native',
        nameservers: ['ns1.old-provider.net.'],
        rrsets: [
          rrset('', 'A', ['203.0.113.50']),
          rrset('www.', 'CNAME', [`${zone}.`], 600),
          rrset('', 'MX', ['10 mx.old-provider.net.']),
          rrset('', 'TXT', [`"v=spf1 mx -all"`]),
          rrset('_xmpp._tcp.', 'SRV', ['5 0 5222 xmpp.old-provider.net.']),
          rrset('rev.', 'PTR', ['host.old-provider.net.']),
        ],
      }),
    });
    expect(created.status).toBe(201);
    t = await buildTestApp('sqlite', {
      config: {
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': panelDns.apiUrl,
        'dns.powerdnsApiKey': panelDns.apiKey,
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        'dns.importAxfr': 'any',
      },
    });
    const account = await buildAccount(t.database.db, { domainName: zone });
    serviceId = account.resources[zone] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([panelDns?.stop(), oldDns?.stop()]);
  });

  it('reads the zone from the old name server, previews it like a file, and dig answers it after apply', async () => {
    const read = await t.call<{ text: string }>(
      'POST',
      `service/${serviceId}/dns/import/axfr/`,
      { server: `127.0.0.1:${oldDns.dnsPort}`, language: 'en' },
      { cookie },
    );
    expect(read.body.system.errors).toEqual([]);
    const { text } = read.body.data;
    expect(text).toMatch(/\sSOA\s/);
    const { body } = await t.call<DnsImportData>(
      'POST',
      `service/${serviceId}/dns/import/`,
      { text, mode: 'replace', language: 'en' },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    expect(body.data.refused.map((r) => r.reason)).toEqual(['The panel does not support PTR records']);
    // the SOA comes first and last in a transfer; the old provider's NS stays behind
    expect(body.data.kept.map((r) => r.reason).sort()).toEqual([
      'The SOA is the provider’s and stays',
      'The SOA is the provider’s and stays',
      'The name servers at the root are the provider’s and stay',
    ]);
    expect(await panelDns.dig(zone, 'A')).toEqual(['203.0.113.50']);
    expect(await panelDns.dig(`www.${zone}`, 'CNAME')).toEqual([`${zone}.`]);
    expect(await panelDns.dig(zone, 'MX')).toEqual(['10 mx.old-provider.net.']);
    expect(await panelDns.dig(zone, 'TXT')).toEqual(['"v=spf1 mx -all"']);
    expect(await panelDns.dig(`_xmpp._tcp.${zone}`, 'SRV')).toEqual(['5 0 5222 xmpp.old-provider.net.']);
    expect((await panelDns.dig(zone, 'NS')).sort()).toEqual(['ns1.provider.test.', 'ns2.provider.test.']);
  });

  it('a name server that does not hand over the zone is said so, under the field', async () => {
    await fetch(`${oldDns.apiUrl}/api/v1/servers/localhost/zones/${zone}.`, {
      method: 'DELETE',
      headers: { 'x-api-key': oldDns.apiKey },
    });
    const { response, body } = await t.call(
      'POST',
      `service/${serviceId}/dns/import/axfr/`,
      { server: `127.0.0.1:${oldDns.dnsPort}`, language: 'en' },
      { cookie },
    );
    expect(response.statusCode).toBe(400);
    expect(body.system).toMatchObject({
      inputs: ['server'],
      errors: ['The name server did not hand over the zone (AXFR refused or no answer)'],
    });
  });
});
