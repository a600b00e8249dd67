import type { DnsRecord } from '@panel247/contract/dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

type List = { dnss: DnsRecord[]; total: number };
type One = { dns: DnsRecord };

describe.each(DATABASE_KINDS)('DNS zone API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let serviceId: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'] } });
    account = await buildAccount(t.database.db, {
      domainName: 'zone.test',
      resources: {
        'zone.test': { hasDomain: true, hasService: true },
        'only-domain.test': { hasDomain: true },
        'ñandú.test': { hasService: true },
      },
    });
    other = await buildAccount(t.database.db, { domainName: 'other-zone.test' });
    serviceId = account.resources['zone.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const create = (params: Record<string, string>) =>
    t.call<One>('POST', `service/${serviceId}/dns/create/`, { ttl: '0', priority: '20', ...params }, { cookie });
  const list = async () => (await t.call<List>('GET', `service/${serviceId}/dns/list/`, {}, { cookie })).body.data.dnss;

  it('creates the zone with the provider’s defaults on first use', async () => {
    const records = await list();
    const summary = records.map(
      (r) => `${r.zona || '@'} ${r.type} ${r.priority} ${r.value} ${r.eliminable ? 'e' : '-'}`,
    );
    expect(summary).toEqual([
      '@ A 0 192.0.2.10 e',
      '@ AAAA 0 2001:db8::10 e',
      '@ MX 10 mail.zone.test e',
      '@ NS 0 ns1.provider.test -',
      '@ NS 0 ns2.provider.test -',
      '@ TXT 0 v=spf1 mx a include:spf.panel247.test ~all e',
      '_dmarc TXT 0 v=DMARC1; p=none; rua=mailto:dmarc-reports@panel247.test e',
      'mail A 0 192.0.2.25 e',
      'www CNAME 0 zone.test e',
    ]);
    expect(records[0]).toMatchObject({
      reference: 'zone.test',
      referencePunycode: 'zone.test',
      dynamicValue: '{web_ipv4}',
    });
  });

  it.each([
    [{ type: 'A', zona: 'web', value: '203.0.113.7' }, 'web A 0 203.0.113.7'],
    [{ type: 'AAAA', zona: 'v6', value: '2001:DB8:0:0:0:0:0:1' }, 'v6 AAAA 0 2001:db8::1'],
    [{ type: 'CNAME', zona: 'blog', value: 'example.org.' }, 'blog CNAME 0 example.org'],
    [{ type: 'MX', zona: '', value: 'mx2.example.org', priority: '30' }, ' MX 30 mx2.example.org'],
    [{ type: 'NS', zona: 'sub', value: 'ns.example.org' }, 'sub NS 0 ns.example.org'],
    [{ type: 'ANAME', zona: 'flat', value: 'www.example.org' }, 'flat ANAME 0 www.example.org'],
    [{ type: 'SRV', zona: '_sip._tcp', value: '20 5060 sip.example.org.' }, '_sip._tcp SRV 20 20 5060 sip.example.org'],
    [{ type: 'CAA', zona: '', value: '0 issue "letsencrypt.org"' }, ' CAA 0 0 issue "letsencrypt.org"'],
    [{ type: 'TXT', zona: '_dmarc.sub', value: 'v=DMARC1; p=none' }, '_dmarc.sub TXT 0 v=DMARC1; p=none'],
    [{ type: 'A', zona: 'ñandú', value: '203.0.113.8' }, 'xn--and-6ma2c A 0 203.0.113.8'],
    [{ type: 'A', zona: 'col·legi', value: '203.0.113.9' }, 'xn--collegi-xma A 0 203.0.113.9'],
    [{ type: 'AAAA', zona: 'mapped', value: '::FFFF:C000:0201' }, 'mapped AAAA 0 ::ffff:192.0.2.1'],
    [{ type: 'TXT', zona: 'sel1._domainkey', value: 'v=DKIM1; p=abc' }, 'sel1._domainkey TXT 0 v=DKIM1; p=abc'],
    [{ type: 'CNAME', zona: '_acme-challenge', value: 'acme.example.org' }, '_acme-challenge CNAME 0 acme.example.org'],
  ])('creates %o', async (params, expected) => {
    const { body } = await create(params as Record<string, string>);
    expect(body.system.valid).toBe(true);
    expect(body.system.info).toEqual(['Registro creado']);
    const r = body.data.dns;
    expect(`${r.zona} ${r.type} ${r.priority} ${r.value}`).toBe(expected);
    expect((await list()).some((x) => x.id === r.id)).toBe(true);
  });

  it.each([
    [{ type: 'A', value: '010.0.0.1' }, 'value'],
    [{ type: 'A', value: '127.1' }, 'value'],
    [{ type: 'A', value: '256.1.1.1' }, 'value'],
    [{ type: 'AAAA', value: 'fe80::1%eth0' }, 'value'],
    [{ type: 'AAAA', value: '1::2::3' }, 'value'],
    [{ type: 'CNAME', zona: '', value: 'example.org' }, 'zona'],
    [{ type: 'CNAME', zona: 'www', value: 'example.org' }, 'zona'],
    [{ type: 'A', zona: 'www', value: '203.0.113.1' }, 'zona'],
    [{ type: 'MX', value: 'not a host' }, 'value'],
    [{ type: 'MX', value: '192.0.2.1' }, 'value'],
    [{ type: 'MX', value: 'mx.example.org', priority: '7' }, 'priority'],
    [{ type: 'SRV', zona: 'sip', value: '1 5060 sip.example.org' }, 'zona'],
    [{ type: 'SRV', zona: '_sip._udp', value: '1 70000 sip.example.org' }, 'value'],
    [{ type: 'CAA', value: '300 issue "ca.example"' }, 'value'],
    [{ type: 'CAA', value: '0 policy "ca.example"' }, 'value'],
    [{ type: 'CAA', value: '0 issue ca.example' }, 'value'],
    [{ type: 'TXT', value: 'line\r\nbreak' }, 'value'],
    [{ type: 'TXT', value: 'nul\u0000' }, 'value'],
    [{ type: 'A', zona: 'bad_label', value: '203.0.113.1' }, 'zona'],
    [{ type: 'TXT', zona: 'bad_label', value: 'x' }, 'zona'],
    [{ type: 'A', zona: '_x', value: '203.0.113.1' }, 'zona'],
    [{ type: 'A', zona: 'www._tcp', value: '203.0.113.1' }, 'zona'],
    [{ type: 'MX', zona: '_mx', value: 'mx.example.org' }, 'zona'],
    [{ type: 'SRV', zona: '_sip._tcp._x', value: '1 5060 sip.example.org' }, 'zona'],
    [{ type: 'A', zona: 'x'.repeat(64), value: '203.0.113.1' }, 'zona'],
    [{ type: 'A', zona: `${`${'a'.repeat(60)}.`.repeat(4)}b`, value: '203.0.113.1' }, 'zona'],
    [{ type: 'A', zona: 'ok', value: '203.0.113.1', ttl: '77' }, 'ttl'],
    [{ type: 'SOA', value: 'x' }, 'type'],
    [{ type: 'A', zona: 'x\r\n', value: '203.0.113.1' }, 'zona'],
    // IDNA2008 (RFC 5891/5892) refuses symbols that UTS-46 lets through, typed or as an A-label
    [{ type: 'A', zona: 'ä😀', value: '203.0.113.1' }, 'zona'],
    [{ type: 'A', zona: 'xn--e28h', value: '203.0.113.1' }, 'zona'],
    [{ type: 'A', value: '' }, 'value'],
    [{ type: 'TXT', value: 'x'.repeat(10_000) }, 'value'],
    // one SPF record per name (RFC 7208 4.5, any case), one DMARC record at _dmarc
    [{ type: 'TXT', value: 'V=SPF1 -all' }, 'value'],
    [{ type: 'TXT', zona: '_dmarc', value: 'v=DMARC1; p=reject' }, 'value'],
  ])('refuses %o on %s and writes nothing', async (params, field) => {
    const before = (await list()).length;
    const { response, body } = await create(params as Record<string, string>);
    expect(response.statusCode).toBe(400);
    expect(body.system.inputs).toContain(field);
    expect((await list()).length).toBe(before);
  });

  it('pages and filters the list on the server when asked', async () => {
    const all = await list();
    const page = (params: Record<string, string>) =>
      t.call<List>('GET', `service/${serviceId}/dns/list/`, params, { cookie }).then((r) => r.body);
    const first = await page({ page: '1', pageSize: '3' });
    expect(first.data.dnss).toEqual(all.slice(0, 3));
    expect(first.data.total).toBe(all.length);
    const second = await page({ page: '2', pageSize: '3' });
    expect(second.data.dnss).toEqual(all.slice(3, 6));
    const mx = await page({ page: '1', type: 'MX' });
    expect(mx.data.dnss.every((r) => r.type === 'MX')).toBe(true);
    expect(mx.data.total).toBe(all.filter((r) => r.type === 'MX').length);
    const text = await page({ page: '1', pageSize: '100', filter: 'DMARC' });
    // the default DMARC record and the subdomain's created above
    expect(text.data.dnss.map((r) => r.zona)).toEqual(['_dmarc', '_dmarc.sub']);
    const byTtl = await page({ filter: '86400' });
    expect(byTtl.data.total).toBe(all.filter((r) => String(r.ttl).includes('86400')).length);
    expect((await page({ filter: '%' })).data.total).toBe(0);
    expect((await page({ filter: 'zone.test' })).data.total).toBe(all.length);
    const bad = await page({ page: '0', type: 'SOA' });
    expect(bad.system.inputs).toEqual(['page', 'type']);
  });

  it('matches the Unicode reference and a Unicode name in the text filter', async () => {
    const idn = account.resources['ñandú.test'] as number;
    const page = (service: number, filter: string) =>
      t
        .call<List>('GET', `service/${service}/dns/list/`, { page: '1', pageSize: '100', filter }, { cookie })
        .then((r) => r.body.data);
    const all = (await t.call<List>('GET', `service/${idn}/dns/list/`, {}, { cookie })).body.data.dnss;
    expect(all[0]).toMatchObject({ reference: 'ñandú.test', referencePunycode: 'xn--and-6ma2c.test' });
    for (const filter of ['ñandú', 'ÑANDÚ', 'ñand', 'ñandú.test', 'xn--and-6ma2c']) {
      expect((await page(idn, filter)).total, filter).toBe(all.length);
    }
    // In another zone, a Unicode name matches the punycode record it was stored as.
    const matched = await page(serviceId, 'ñandú');
    expect(matched.dnss.map((r) => r.zona)).toEqual(['xn--and-6ma2c']);
    expect((await page(serviceId, 'ñandúes')).total).toBe(0);
  });

  it('refuses an identical record', async () => {
    await create({ type: 'A', zona: 'twin', value: '198.51.100.1' });
    const { body } = await create({ type: 'A', zona: 'twin', value: '198.51.100.1' });
    expect(body.system).toMatchObject({ valid: false, inputs: ['value'], errors: ['Ya existe un registro igual'] });
  });

  it('takes an empty TTL or priority as left out (the defaults), never as 0', async () => {
    const empty = await create({ type: 'MX', zona: 'vacio', value: 'mx.example.org', ttl: '', priority: '' });
    expect(empty.body.system.errors).toEqual([]);
    expect(empty.body.data.dns).toMatchObject({ ttl: 0, priority: 20 });
    const absent = await t.call<One>(
      'POST',
      `service/${serviceId}/dns/create/`,
      { type: 'MX', zona: 'ausente', value: 'mx.example.org' },
      { cookie },
    );
    expect(absent.body.data.dns).toMatchObject({ ttl: 0, priority: 20 });
    const bad = await create({ type: 'MX', zona: 'mal', value: 'mx.example.org', priority: 'x' });
    expect(bad.body.system.inputs).toEqual(['priority']);
  });

  it('edits value, TTL and priority of a record, keeping its type and name', async () => {
    const { body } = await create({ type: 'MX', zona: 'mx', value: 'a.example.org', priority: '10' });
    const id = body.data.dns.id;
    const saved = await t.call<One>(
      'POST',
      `service/${serviceId}/dns/${id}/save/`,
      { value: 'b.example.org', ttl: '3600', priority: '50', type: 'A', zona: 'hijack' },
      { cookie },
    );
    expect(saved.body.data.dns).toMatchObject({
      id,
      type: 'MX',
      zona: 'mx',
      value: 'b.example.org',
      ttl: 3600,
      priority: 50,
    });
    const one = await t.call<One>('GET', `service/${serviceId}/dns/${id}/`, {}, { cookie });
    expect(one.body.data.dns.value).toBe('b.example.org');
    const bad = await t.call('POST', `service/${serviceId}/dns/${id}/save/`, { value: 'not valid!' }, { cookie });
    expect(bad.body.system.inputs).toEqual(['value']);
  });

  it('deletes eliminable records only', async () => {
    const { body } = await create({ type: 'TXT', zona: 'gone', value: 'bye' });
    const removed = await t.call('POST', `service/${serviceId}/dns/${body.data.dns.id}/delete/`, {}, { cookie });
    expect(removed.body.system.info).toEqual(['Registro eliminado']);
    expect((await list()).some((r) => r.id === body.data.dns.id)).toBe(false);
    const ns = (await list()).find((r) => r.type === 'NS') as DnsRecord;
    const refused = await t.call('POST', `service/${serviceId}/dns/${ns.id}/delete/`, {}, { cookie });
    expect(refused.response.statusCode).toBe(403);
    expect(refused.body.system.errors).toEqual(['Este registro no se puede eliminar']);
  });

  it('exports the zone as a BIND master file', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${serviceId}/dns/export/`,
      headers: { cookie, 'x-dd-request': '1' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="zone.test.zone"; filename*=UTF-8''zone.test.zone`,
    );
    expect(response.body).toContain('$ORIGIN zone.test.');
    expect(response.body).toMatch(/^_sip\._tcp\t3600\tIN\tSRV\t20 20 5060 sip\.example\.org\.$/m);
    expect(response.body).toMatch(/^_dmarc\.sub\t3600\tIN\tTXT\t"v=DMARC1; p=none"$/m);
  });

  it('deletes all eliminable records, keeping the name servers, then restores the defaults', async () => {
    const emptied = await t.call<List>('POST', `service/${serviceId}/dns/delete/`, {}, { cookie });
    expect(emptied.body.data.dnss.map((r) => r.type)).toEqual(['NS', 'NS']);
    const restored = await t.call<List>('POST', `service/${serviceId}/dns/restore/`, {}, { cookie });
    expect(restored.body.data.dnss).toHaveLength(9);
    expect(restored.body.system.info).toEqual(['Zona restaurada con los registros por defecto']);
  });

  describe('permissions', () => {
    /** Every DNS call as [name, method, path, params, is a change]; `rid` is a record of the zone. */
    const calls = (service: number, rid: number) =>
      [
        ['list', 'GET', `service/${service}/dns/list/`, {}, false],
        ['get', 'GET', `service/${service}/dns/${rid}/`, {}, false],
        ['export', 'GET', `service/${service}/dns/export/`, {}, false],
        [
          'create',
          'POST',
          `service/${service}/dns/create/`,
          { type: 'TXT', zona: 'matrix-new', value: 'x', ttl: '0', priority: '0' },
          true,
        ],
        ['save', 'POST', `service/${service}/dns/${rid}/save/`, { value: 'saved', ttl: '600', priority: '0' }, true],
        ['delete', 'POST', `service/${service}/dns/${rid}/delete/`, {}, true],
        ['restore', 'POST', `service/${service}/dns/restore/`, {}, true],
        ['delete-all', 'POST', `service/${service}/dns/delete/`, {}, true],
      ] as const;

    /** The export is a download, not an envelope: only its status matters here. */
    const status = async (method: 'GET' | 'POST', path: string, params: Record<string, string>, c: string) => {
      if (path.endsWith('/export/')) {
        const response = await t.app.inject({
          method,
          url: `/p247/${path}`,
          headers: { cookie: c, 'x-dd-request': '1' },
        });
        return response.statusCode;
      }
      return (await t.call(method, path, params, { cookie: c })).response.statusCode;
    };

    const snapshot = async () => (await list()).map((r) => `${r.id} ${r.zona} ${r.type} ${r.ttl} ${r.value}`).sort();

    it.each(['disabled', 'read', 'write'] as const)('service_dnszone %s: every call', async (level) => {
      await t.call('POST', `service/${serviceId}/dns/restore/`, {}, { cookie });
      const { body } = await create({ type: 'TXT', zona: `matrix-${level}`, value: 'before' });
      const rid = body.data.dns.id;
      const user = await buildUser(t.database.db, account, `dns-${level}`, {
        'zone.test': { ...allKeys('read'), service_dnszone: level },
      });
      const c = await t.login(account.domainName, user.username, user.password);
      const before = await snapshot();
      const seen: Record<string, number> = {};
      for (const [name, method, path, params, change] of calls(serviceId, rid)) {
        seen[name] = await status(method, path, params as Record<string, string>, c);
        if (level !== 'write' && change) expect(await snapshot(), `${name} wrote nothing`).toEqual(before);
      }
      const expected = (change: boolean) => (level === 'disabled' ? 404 : level === 'read' && change ? 403 : 200);
      expect(seen).toEqual(
        Object.fromEntries(calls(serviceId, rid).map(([name, , , , change]) => [name, expected(change)])),
      );
      if (level === 'write') {
        // The write user's calls ran in order: the record was saved, then deleted, then the zone
        // restored and emptied of every eliminable record.
        expect((await list()).map((r) => r.type)).toEqual(['NS', 'NS']);
        await t.call('POST', `service/${serviceId}/dns/restore/`, {}, { cookie });
      }
    });

    it('answers a service of another account, or a resource without hosting, as not found', async () => {
      for (const id of [other.resources['other-zone.test'], account.resources['only-domain.test'], 999_999]) {
        const { response } = await t.call('GET', `service/${id}/dns/list/`, {}, { cookie });
        expect(response.statusCode).toBe(404);
      }
    });

    it('never reaches a record of another account’s zone, by either id, and changes nothing there', async () => {
      const theirService = other.resources['other-zone.test'] as number;
      const theirCookie = await t.login(other.domainName, other.username, other.password);
      const made = await t.call<One>(
        'POST',
        `service/${theirService}/dns/create/`,
        { type: 'A', zona: 'theirs', value: '198.51.100.77', ttl: '0', priority: '0' },
        { cookie: theirCookie },
      );
      const theirRecord = made.body.data.dns;
      const theirList = async () =>
        (await t.call<List>('GET', `service/${theirService}/dns/list/`, {}, { cookie: theirCookie })).body.data.dnss;
      const theirsBefore = await theirList();
      const mineBefore = await snapshot();
      // Their record id under my service, and their service (with their record id) directly.
      for (const service of [serviceId, theirService]) {
        for (const [name, method, path, params] of calls(service, theirRecord.id)) {
          if (service === serviceId && !path.includes(`/${theirRecord.id}/`)) continue;
          expect(await status(method, path, params as Record<string, string>, cookie), `${name} on ${service}`).toBe(
            404,
          );
        }
      }
      expect(await theirList()).toEqual(theirsBefore);
      expect(await snapshot()).toEqual(mineBefore);
      expect(theirsBefore.find((r) => r.id === theirRecord.id)).toMatchObject({ value: '198.51.100.77' });
    });
  });
});

describe.each(DATABASE_KINDS)('DNS default records from the config on %s', (kind) => {
  let t: TestApp;
  let cookie: string;
  let serviceId: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        'dns.webHost': 'web7.provider.test',
        'dns.mailHost': 'mx.provider.test',
        'dns.webIpv6': '',
        'dns.defaultRecords': [
          { type: 'NS', value: '{ns}', eliminable: false },
          { type: 'AAAA', value: '{web_ipv6}' },
          { type: 'ANAME', value: '{web_host}' },
          { type: 'CNAME', zona: 'www', value: '{web_host}' },
          { type: 'MX', value: '{mail_host}', priority: 5, ttl: 3600 },
          { type: 'TXT', zona: '_dmarc', value: 'v=DMARC1; p=none; rua=mailto:dmarc@{domain}' },
        ],
      },
    });
    const account = await buildAccount(t.database.db, { domainName: 'custom-zone.test' });
    serviceId = account.resources['custom-zone.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const summary = (records: DnsRecord[]) =>
    records.map((r) => `${r.zona || '@'} ${r.type} ${r.priority} ${r.ttl} ${r.value} [${r.dynamicValue}]`);
  const expected = [
    '@ ANAME 0 0 web7.provider.test [{web_host}]',
    '@ MX 5 3600 mx.provider.test [{mail_host}]',
    '@ NS 0 0 ns1.provider.test [{ns}]',
    '@ NS 0 0 ns2.provider.test [{ns}]',
    '_dmarc TXT 0 0 v=DMARC1; p=none; rua=mailto:dmarc@custom-zone.test []',
    'www CNAME 0 0 web7.provider.test [{web_host}]',
  ];

  it('creates the zone with the configured set, and restore puts exactly that set back', async () => {
    const first = await t.call<List>('GET', `service/${serviceId}/dns/list/`, {}, { cookie });
    expect(summary(first.body.data.dnss)).toEqual(expected);
    await t.call(
      'POST',
      `service/${serviceId}/dns/create/`,
      { type: 'A', zona: 'extra', value: '192.0.2.8', ttl: '0', priority: '0' },
      { cookie },
    );
    const www = first.body.data.dnss.find((r) => r.zona === 'www') as DnsRecord;
    await t.call('POST', `service/${serviceId}/dns/${www.id}/delete/`, {}, { cookie });
    const restored = await t.call<List>('POST', `service/${serviceId}/dns/restore/`, {}, { cookie });
    expect(summary(restored.body.data.dnss)).toEqual(expected);
    const wiped = await t.call<List>('POST', `service/${serviceId}/dns/delete/`, {}, { cookie });
    expect(summary(wiped.body.data.dnss)).toEqual(expected.filter((line) => line.includes(' NS ')));
  });
});
