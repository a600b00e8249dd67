import type { DnssecEntry, DomainData, GlueRecord } from '@panel247/contract/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

// RFC 4509 section 2.3: this DNSKEY of dskey.example.com has key tag 60485 and this SHA-256 DS.
const RFC4509_KEY =
  'AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==';
const RFC4509_DS = 'd4b7d520e7bb5f0f67674a0cceb1e3e0614b93c4f9e99b8383f6a1e4469da50a';

const contact = {
  type: 'admin',
  isOrg: '0',
  firstName: 'Ana',
  lastName: 'García',
  identNumber: '12345678Z',
  orgName: '',
  email: 'ana@example.com',
  phone: '+34.912345678',
  postalCode: '28013',
  country: 'ES',
  state: 'M',
  city: 'Madrid',
  address: 'Calle Mayor 1',
  mode: 'only_contact',
};

describe.each(DATABASE_KINDS)('domain area API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let id: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        // Names the panel's zones do not answer go to DNS: a loopback port where nothing listens
        // answers "refused" at once, so the tests never wait for (or reach) a real resolver.
        'registry.resolvers': ['127.0.0.1:9'],
      },
    });
    account = await buildAccount(t.database.db, {
      domainName: 'registro.test',
      resources: {
        'registro.test': { hasDomain: true, hasService: true },
        'solo.test': { hasDomain: true },
        'dskey.example.com': { hasDomain: true },
      },
    });
    other = await buildAccount(t.database.db, { domainName: 'ajeno.test' });
    id = account.resources['registro.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    // Give registro.test's zone ns1/ns2 so they resolve through the panel's own zones.
    const service = account.resources['registro.test'] as number;
    for (const [zona, value] of [
      ['ns1', '192.0.2.1'],
      ['ns2', '192.0.2.2'],
      ['ns3', '192.0.2.3'],
    ]) {
      await t.call(
        'POST',
        `service/${service}/dns/create/`,
        { type: 'A', zona: zona as string, value: value as string },
        { cookie },
      );
    }
  });
  afterAll(() => t.close());

  const get = () => t.call<DomainData>('GET', `domain/${id}/`, {}, { cookie }).then((r) => r.body.data);

  it('shows the domain with provider name servers, status flags and four contacts', async () => {
    const data = await get();
    expect(data.domain).toMatchObject({
      id,
      name: 'registro.test',
      dns: { mode: 'defaultDNS', servers: ['ns1.provider.test', 'ns2.provider.test'] },
      blocked: false,
      transferBlock: false,
      whoisPrivacy: false,
      authType: 'authcode',
    });
    expect(data.registrant.id).toBe(data.admin.id);
    const foreign = await t.call('GET', `domain/${other.resources['ajeno.test']}/`, {}, { cookie });
    expect(foreign.response.statusCode).toBe(404);
  });

  it('answers a view’s first calls side by side on the domain’s first use, and makes it once', async () => {
    // the domain view's calls leave together (the boot's prefetch, the server's drawing)
    const first = await buildAccount(t.database.db, {
      domainName: 'primero.test',
      resources: { 'primero.test': { hasDomain: true } },
    });
    const firstId = first.resources['primero.test'] as number;
    const firstCookie = await t.login(first.domainName, first.username, first.password);
    const answers = await Promise.all(
      [
        `domain/${firstId}/`,
        `domain/${firstId}/gluerecord/list/`,
        `domain/${firstId}/dnssec/list/`,
        `domain/${firstId}/`,
      ].map((path) => t.call('GET', path, {}, { cookie: firstCookie })),
    );
    expect(answers.map((answer) => answer.response.statusCode)).toEqual([200, 200, 200, 200]);
    const rows = await t.database.db.selectFrom('domains').selectAll().where('resource_id', '=', firstId).execute();
    expect(rows).toHaveLength(1);
    const [data, again] = [answers[0], answers[3]].map((answer) => answer?.body.data as DomainData);
    expect(data?.domain.dns.servers).toEqual(['ns1.provider.test', 'ns2.provider.test']);
    expect(again?.registrant.id).toBe(data?.registrant.id);
  });

  describe('name servers', () => {
    it('offers the provider’s servers only with a service', async () => {
      const init = await t.call('GET', `domains/${id}/dnsinit/`, {}, { cookie });
      expect(init.body.data).toEqual({
        domainDNSs: ['ns1.provider.test', 'ns2.provider.test'],
        hasService: true,
        defaultDNSs: ['ns1.provider.test', 'ns2.provider.test'],
        dsRecords: 0,
        canRemoveDs: true,
        zoneDsRecords: 0,
      });
      const solo = account.resources['solo.test'] as number;
      const refused = await t.call('POST', `domain/${solo}/dnsedit/`, { 'default-ns': '1' }, { cookie });
      expect(refused.body.system.inputs).toEqual(['default-ns']);
    });

    it('saves 2 to 7 custom servers that resolve, reporting bad rows by position', async () => {
      const saved = await t.call<{ domain: DomainData['domain'] }>(
        'POST',
        `domain/${id}/dnsedit/`,
        { 'default-ns': '0', 'dns[]': ['NS1.registro.test.', 'ns2.registro.test', 'ns3.registro.test', ''] },
        { cookie },
      );
      expect(saved.body.system.info[0]).toContain('24 horas');
      expect(saved.body.data.domain.dns).toEqual({
        mode: 'setDNS',
        servers: ['ns1.registro.test', 'ns2.registro.test', 'ns3.registro.test'],
      });
      const bad = await t.call(
        'POST',
        `domain/${id}/dnsedit/`,
        {
          'dns[]': [
            'ns1.registro.test',
            'ghost.registro.test',
            'ns1.registro.test',
            'not a host',
            'ns2.registro.test\r\n',
          ],
        },
        { cookie },
      );
      expect(bad.body.system.inputs).toEqual(['dns[1]', 'dns[2]', 'dns[3]', 'dns[4]']);
      expect(bad.body.system.errors[0]).toBe('Este servidor no resuelve a ninguna dirección IP');
      const one = await t.call('POST', `domain/${id}/dnsedit/`, { 'dns[]': ['ns1.registro.test', ''] }, { cookie });
      expect(one.body.system.inputs).toEqual(['dns[1]']);
      const eight = Array.from({ length: 8 }, () => 'ns1.registro.test');
      expect(
        (await t.call('POST', `domain/${id}/dnsedit/`, { 'dns[]': eight }, { cookie })).body.system.inputs[0],
      ).toBe('dns');
      expect((await get()).domain.dns.servers).toHaveLength(3);
      const back = await t.call('POST', `domain/${id}/dnsedit/`, { 'default-ns': '1' }, { cookie });
      expect(back.body.data).toMatchObject({ domain: { dns: { mode: 'defaultDNS' } } });
    });

    it('with the database DNS driver, answers from the panel’s zones: A/AAAA count, aliases are followed', async () => {
      for (const [type, zona, value] of [
        ['CNAME', 'alias', 'ns1.registro.test'],
        ['CNAME', 'chain', 'alias.registro.test'],
        ['AAAA', 'six', '2001:db8::6'],
        ['CNAME', 'away', 'nowhere.invalid'],
        ['CNAME', 'loop1', 'loop2.registro.test'],
        ['CNAME', 'loop2', 'loop1.registro.test'],
        ['TXT', 'textonly', 'no address here'],
      ] as const) {
        const made = await t.call('POST', `service/${id}/dns/create/`, { type, zona, value, ttl: '0' }, { cookie });
        expect(made.body.system.errors).toEqual([]);
      }
      const ok = await t.call<{ domain: DomainData['domain'] }>(
        'POST',
        `domain/${id}/dnsedit/`,
        { 'dns[]': ['alias.registro.test', 'chain.registro.test', 'six.registro.test'] },
        { cookie },
      );
      expect(ok.body.system.errors).toEqual([]);
      expect(ok.body.data.domain.dns.servers).toEqual([
        'alias.registro.test',
        'chain.registro.test',
        'six.registro.test',
      ]);
      const bad = await t.call(
        'POST',
        `domain/${id}/dnsedit/`,
        { 'dns[]': ['ns1.registro.test', 'away.registro.test', 'loop1.registro.test', 'textonly.registro.test'] },
        { cookie },
      );
      expect(bad.body.system.inputs).toEqual(['dns[1]', 'dns[2]', 'dns[3]']);
      expect(new Set(bad.body.system.errors)).toEqual(new Set(['Este servidor no resuelve a ninguna dirección IP']));
      expect((await get()).domain.dns.servers).toEqual(ok.body.data.domain.dns.servers);
      await t.call('POST', `domain/${id}/dnsedit/`, { 'default-ns': '1' }, { cookie });
    });

    it.each([
      ['no server at all', {}, ['dns[0]', 'dns[1]']],
      ['an empty list', { 'dns[]': ['', ''] }, ['dns[0]', 'dns[1]']],
      ['one server', { 'dns[]': ['ns1.registro.test'] }, ['dns[1]']],
      ['one server and empty rows', { 'dns[]': ['ns1.registro.test', '', '', ''] }, ['dns[1]']],
      ['one server in a later row', { 'dns[]': ['', '', 'ns1.registro.test'] }, ['dns[0]', 'dns[1]']],
    ])('refuses fewer than 2 servers (%s) and writes nothing', async (_name, params, inputs) => {
      const before = (await get()).domain.dns;
      const { response, body } = await t.call(
        'POST',
        `domain/${id}/dnsedit/`,
        { 'default-ns': '0', ...params },
        { cookie },
      );
      expect(response.statusCode).toBe(400);
      expect(body.system.inputs).toEqual(inputs);
      expect(body.system.errors[0]).toBe('Este campo es obligatorio');
      expect((await get()).domain.dns).toEqual(before);
    });
  });

  describe('glue records', () => {
    it('creates a host under the domain, edits and deletes it', async () => {
      const created = await t.call<{ gluerecords: GlueRecord[] }>(
        'POST',
        `domain/${id}/gluerecord/create/`,
        { name: 'ns1', ip: '192.0.2.10', ipv6: '2001:DB8:0::1' },
        { cookie },
      );
      expect(created.body.data.gluerecords).toEqual([
        { id: expect.any(Number), name: 'ns1.registro.test', ip: '192.0.2.10', ipv6: '2001:db8::1' },
      ]);
      const glueId = created.body.data.gluerecords[0]?.id;
      const saved = await t.call<{ gluerecords: GlueRecord[] }>(
        'POST',
        `domain/${id}/gluerecord/${glueId}/save/`,
        { ip: '192.0.2.11', ipv6: '' },
        { cookie },
      );
      expect(saved.body.data.gluerecords[0]).toMatchObject({ ip: '192.0.2.11', ipv6: '' });
      const deleted = await t.call<{ gluerecords: GlueRecord[] }>(
        'POST',
        `domain/${id}/gluerecord/${glueId}/delete/`,
        {},
        { cookie },
      );
      expect(deleted.body.data.gluerecords).toEqual([]);
    });

    it.each([
      [{ name: 'ns2', ip: '256.1.1.1' }, ['ip'], 'IP Invalida'],
      [{ name: 'ns2', ip: '1.2.3' }, ['ip'], 'IP Invalida'],
      [{ name: 'ns.elsewhere.org.', ip: '192.0.2.1' }, ['name'], undefined],
      [{ name: 'registro.test', ip: '192.0.2.1' }, ['name'], undefined],
      [{ name: '', ip: 'x' }, ['name', 'ip'], undefined],
      [{ name: 'ns2', ip: '192.0.2.1', ipv6: 'fe80::1%eth0' }, ['ipv6'], undefined],
      [{ name: 'ns\n2', ip: '192.0.2.1' }, ['name'], undefined],
      // an emoji: UTS-46 maps it to xn--e28h, IDNA2008 (and every registry) refuses it
      [{ name: '😀', ip: '192.0.2.1' }, ['name'], undefined],
      [{ name: 'xn--e28h', ip: '192.0.2.1' }, ['name'], undefined],
    ])('refuses %o', async (params, inputs, message) => {
      const { body } = await t.call('POST', `domain/${id}/gluerecord/create/`, params as Record<string, string>, {
        cookie,
      });
      expect(body.system.inputs).toEqual(inputs);
      if (message) expect(body.system.errors[0]).toBe(message);
      const list = await t.call<{ gluerecords: GlueRecord[] }>('GET', `domain/${id}/gluerecord/list/`, {}, { cookie });
      expect(list.body.data.gluerecords).toEqual([]);
    });
  });

  describe('DNSSEC', () => {
    it('adds a DS digest with the exact hex length of its type', async () => {
      const init = await t.call('GET', `domain/${id}/dnssec/createinit/`, {}, { cookie });
      expect(init.body.data).toMatchObject({
        type: 'digest',
        zoneKeysAvailable: false,
        flags: { 256: 'ZSK', 257: 'KSK' },
      });
      for (const [digesttype, length] of [
        [1, 40],
        [2, 64],
        [3, 64],
        [4, 96],
      ] as const) {
        const good = await t.call(
          'POST',
          `domain/${id}/dnssec/create/`,
          {
            keytag: '12345',
            algorithm: '13',
            digesttype: String(digesttype),
            digest: 'A'.repeat(length - 2) + String(digesttype).padStart(2, '0'),
          },
          { cookie },
        );
        expect(good.body.system.valid).toBe(true);
        const bad = await t.call(
          'POST',
          `domain/${id}/dnssec/create/`,
          { keytag: '1', algorithm: '13', digesttype: String(digesttype), digest: 'b'.repeat(length + 2) },
          { cookie },
        );
        expect(bad.body.system.inputs).toEqual(['digest']);
      }
      const wrong = await t.call(
        'POST',
        `domain/${id}/dnssec/create/`,
        { keytag: '70000', algorithm: '9', digesttype: '7', digest: '' },
        { cookie },
      );
      expect(wrong.body.system.inputs).toEqual(['algorithm', 'keytag', 'digesttype', 'digest']);
      // An empty number is absent, never 0: a key tag left empty is the key tag's error.
      const empty = await t.call(
        'POST',
        `domain/${id}/dnssec/create/`,
        { keytag: '', algorithm: '13', digesttype: '2', digest: 'c'.repeat(64) },
        { cookie },
      );
      expect(empty.response.statusCode).toBe(400);
      expect(empty.body.system.inputs).toEqual(['keytag']);
      const list = await t.call<{ dnssec: DnssecEntry[] }>('GET', `domain/${id}/dnssec/list/`, {}, { cookie });
      expect(list.body.data.dnssec).toHaveLength(4);
      const removed = await t.call<{ dnssec: DnssecEntry[] }>(
        'POST',
        `domain/${id}/dnssec/${list.body.data.dnssec[0]?.id}/delete/`,
        {},
        { cookie },
      );
      expect(removed.body.data.dnssec).toHaveLength(3);
    });

    it('computes the key tag and the SHA-256 DS of a public key (RFC 4509 example)', async () => {
      const dskey = account.resources['dskey.example.com'] as number;
      await t.call('GET', `domain/${dskey}/`, {}, { cookie });
      await t.database.db
        .updateTable('domains')
        .set({ dnssec_type: 'pubkey' })
        .where('resource_id', '=', dskey)
        .execute();
      const { body } = await t.call<{ dnssec: DnssecEntry[] }>(
        'POST',
        `domain/${dskey}/dnssec/create/`,
        { flags: '256', protocols: '3', algorithm: '5', digest: RFC4509_KEY },
        { cookie },
      );
      expect(body.data.dnssec).toEqual([
        { id: expect.any(Number), keytag: 60485, algorithm: 5, digesttype: 2, digest: RFC4509_DS },
      ]);
      const bad = await t.call(
        'POST',
        `domain/${dskey}/dnssec/create/`,
        { flags: '255', protocols: '4', algorithm: '5', digest: 'not base64!' },
        { cookie },
      );
      expect(bad.body.system.inputs).toEqual(['flags', 'protocols', 'digest']);
    });
  });

  it('flips each status flag and returns the domain', async () => {
    for (const [path, field] of [
      ['block', 'blocked'],
      ['transferblock', 'transferBlock'],
      ['whoisprivacy', 'whoisPrivacy'],
    ] as const) {
      const on = await t.call<{ domain: DomainData['domain'] }>('POST', `domain/${id}/toggle/${path}/`, {}, { cookie });
      expect(on.body.data.domain[field]).toBe(true);
      const off = await t.call<{ domain: DomainData['domain'] }>(
        'POST',
        `domain/${id}/toggle/${path}/`,
        {},
        { cookie },
      );
      expect(off.body.data.domain[field]).toBe(false);
    }
  });

  it('shows the auth code (stored encrypted), and no transfer key for an auth-code domain', async () => {
    const code = await t.call<{ authCode: string }>('GET', `domain/${id}/authcode/`, {}, { cookie });
    expect(code.body.data.authCode).toMatch(/^\S{12,}$/);
    const row = await t.database.db
      .selectFrom('domains')
      .select('auth_secret')
      .where('resource_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.auth_secret).not.toContain(code.body.data.authCode);
    expect((await t.call('GET', `domain/${id}/transferkey/`, {}, { cookie })).response.statusCode).toBe(404);
  });

  describe('contacts', () => {
    it('saves a contact of one role only, or of every role that shared it, or everywhere', async () => {
      const before = await get();
      const only = await t.call<DomainData>('POST', `domain/${id}/contacts/save/`, contact, { cookie });
      expect(only.body.system.valid).toBe(true);
      expect(only.body.data.admin).toMatchObject({
        name: 'Ana García',
        vat: '12345678Z',
        country: 'España',
        countryKey: 'ES',
        stateKey: 'M',
      });
      expect(only.body.data.billing.id).toBe(before.billing.id);

      const domainWide = await t.call<DomainData>(
        'POST',
        `domain/${id}/contacts/save/`,
        { ...contact, type: 'tech', firstName: 'Pau', mode: 'only_domain' },
        { cookie },
      );
      // tech shared its contact with registrant and billing: all three change, admin keeps its own.
      expect(
        [domainWide.body.data.registrant, domainWide.body.data.billing, domainWide.body.data.tech].map(
          (c) => c.firstName,
        ),
      ).toEqual(['Pau', 'Pau', 'Pau']);
      expect(domainWide.body.data.admin.firstName).toBe('Ana');

      const everywhere = await t.call<DomainData>(
        'POST',
        `domain/${id}/owner/save/`,
        {
          ...contact,
          type: 'registrant',
          isOrg: '1',
          orgName: 'Ejemplo S.L.',
          identNumber: 'B12345674',
          mode: 'all_contacts',
        },
        { cookie },
      );
      expect(everywhere.body.data.registrant).toMatchObject({ type: 'organization', name: 'Ejemplo S.L.' });
      expect(everywhere.body.data.tech.name).toBe('Ejemplo S.L.');
    });

    it.each([
      [{ isOrg: '1', orgName: '' }, ['orgName']],
      [{ identNumber: '12345678A' }, ['identNumber']],
      [{ identNumber: 'X1234567A' }, ['identNumber']],
      [{ phone: '912345678' }, ['phone']],
      [{ postalCode: '123456' }, ['postalCode']],
      [{ country: 'XX' }, ['country']],
      [{ state: 'ZZ' }, ['state']],
      [{ city: 'Atlantis' }, ['city']],
      [{ email: 'nope' }, ['email']],
      [{ firstName: '', address: 'a\r\nb' }, ['firstName', 'address']],
      [{ type: 'registrant' }, ['type']],
    ])('refuses %o and writes nothing', async (change, inputs) => {
      const before = await get();
      const { body } = await t.call('POST', `domain/${id}/contacts/save/`, { ...contact, ...change }, { cookie });
      expect(body.system.inputs).toEqual(inputs);
      expect(await get()).toEqual(before);
    });

    it('accepts valid NIE and CIF, and any identification outside Spain', async () => {
      for (const change of [
        { identNumber: 'X1234567L' },
        { identNumber: 'Q2826000H', isOrg: '1', orgName: 'Org' },
        { country: 'FR', state: '75C', city: 'Paris', identNumber: 'FR-123' },
      ]) {
        const { body } = await t.call('POST', `domain/${id}/contacts/save/`, { ...contact, ...change }, { cookie });
        expect(body.system.errors).toEqual([]);
      }
    });
  });

  it('looks addresses up in es, en and ca', async () => {
    const es = await t.call<{
      country: Record<string, string>;
      states: { key: string; name: string }[];
      cities: { name: string }[];
      names: { state: string };
    }>('POST', 'tools/country/', { country: 'ES', state: 'B', city: 'barcelona' }, { cookie });
    expect(es.body.data.country.DE).toBe('Alemania');
    expect(es.body.data.states.some((s) => s.key === 'B' && s.name === 'Barcelona')).toBe(true);
    expect(es.body.data.cities.some((c) => c.name === 'Barcelona')).toBe(true);
    expect(es.body.data).toMatchObject({
      postalCodes: [],
      selected: { country: 'ES', state: 'B', city: 'Barcelona' },
      names: { state: 'Provincia' },
    });
    const ca = await t.call<{ country: Record<string, string> }>(
      'POST',
      'tools/country/',
      { language: 'ca' },
      { cookie },
    );
    expect(ca.body.data.country.DE).toBe('Alemanya');
    const en = await t.call<{ country: Record<string, string> }>(
      'POST',
      'tools/country/',
      { language: 'en' },
      { cookie },
    );
    expect(en.body.data.country.DE).toBe('Germany');
    // States and cities: the data set has no translations (its `translations` are empty), so every
    // language gets the same local names.
    const states = async (language: string) =>
      (
        await t.call<{ states: { key: string; name: string }[] }>(
          'POST',
          'tools/country/',
          { country: 'ES', language },
          { cookie },
        )
      ).body.data.states;
    const [esStates, enStates, caStates] = await Promise.all([states('es'), states('en'), states('ca')]);
    expect(enStates.find((s) => s.key === 'GI')?.name).toBe('Girona');
    expect(new Set(enStates.map((s) => `${s.key} ${s.name}`))).toEqual(
      new Set(esStates.map((s) => `${s.key} ${s.name}`)),
    );
    expect(caStates.map((s) => s.key).sort()).toEqual(esStates.map((s) => s.key).sort());
  });

  describe('permissions', () => {
    type Call = readonly [method: 'GET' | 'POST', path: string, params?: Record<string, string>];
    const hex = (length: number) =>
      Array.from({ length }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');

    /** Glue and DS entries of a domain, made by its owner, for the calls that need an id. */
    async function fixtures(domainId: number, c: string, tag: string) {
      const glue = await t.call<{ gluerecords: GlueRecord[] }>(
        'POST',
        `domain/${domainId}/gluerecord/create/`,
        { name: `g-${tag}`, ip: '192.0.2.40' },
        { cookie: c },
      );
      const ds = await t.call<{ dnssec: DnssecEntry[] }>(
        'POST',
        `domain/${domainId}/dnssec/create/`,
        { keytag: '4242', algorithm: '13', digesttype: '2', digest: hex(64) },
        { cookie: c },
      );
      const glueId = glue.body.data.gluerecords.find((g) => g.name.startsWith(`g-${tag}.`))?.id;
      const dsId = ds.body.data.dnssec[0]?.id;
      if (!glueId || !dsId) throw new Error(`fixtures for ${tag}: ${glue.body.system.errors} ${ds.body.system.errors}`);
      return { glueId, dsId };
    }

    /** Each key's read calls and change calls (all valid, so write answers 200). */
    function matrix(key: string, domainId: number, ids: { glueId: number; dsId: number }, tag: string) {
      const d = `domain/${domainId}`;
      const calls: Record<string, { reads: Call[]; changes: Call[] }> = {
        domain: { reads: [['GET', `${d}/`]], changes: [] },
        domain_dns: {
          reads: [['GET', `domains/${domainId}/dnsinit/`]],
          changes: [['POST', `${d}/dnsedit/`, { 'default-ns': '1' }]],
        },
        domain_gluerecords: {
          reads: [['GET', `${d}/gluerecord/list/`]],
          changes: [
            ['POST', `${d}/gluerecord/create/`, { name: `n-${tag}`, ip: '192.0.2.41' }],
            ['POST', `${d}/gluerecord/${ids.glueId}/save/`, { ip: '192.0.2.42', ipv6: '' }],
            ['POST', `${d}/gluerecord/${ids.glueId}/delete/`],
          ],
        },
        domain_dnssec: {
          reads: [
            ['GET', `${d}/dnssec/list/`],
            ['GET', `${d}/dnssec/createinit/`],
          ],
          changes: [
            ['POST', `${d}/dnssec/create/`, { keytag: '7', algorithm: '13', digesttype: '2', digest: hex(64) }],
            ['POST', `${d}/dnssec/${ids.dsId}/delete/`],
          ],
        },
        // The flags come with the domain (the `domain` key's read): no read call of their own.
        domain_others: {
          reads: [],
          changes: [
            ['POST', `${d}/toggle/block/`],
            ['POST', `${d}/toggle/whoisprivacy/`],
          ],
        },
        domain_transferblock: { reads: [], changes: [['POST', `${d}/toggle/transferblock/`]] },
        domain_authcode: { reads: [['GET', `${d}/authcode/`]], changes: [] },
        // Contacts come with the domain: without visibility they come blank (checked below).
        domain_contacts: {
          reads: [],
          changes: [['POST', `${d}/contacts/save/`, contact]],
        },
        domain_ownercontacts: {
          reads: [],
          changes: [['POST', `${d}/owner/save/`, { ...contact, type: 'registrant' }]],
        },
      };
      return calls[key] as { reads: Call[]; changes: Call[] };
    }

    const everything = async (domainId: number, c: string) => {
      const read = async (path: string) => (await t.call('GET', path, {}, { cookie: c })).body.data;
      return {
        domain: await read(`domain/${domainId}/`),
        glue: await read(`domain/${domainId}/gluerecord/list/`),
        dnssec: await read(`domain/${domainId}/dnssec/list/`),
      };
    };

    const KEYS = [
      'domain',
      'domain_dns',
      'domain_gluerecords',
      'domain_dnssec',
      'domain_others',
      'domain_transferblock',
      'domain_authcode',
      'domain_contacts',
      'domain_ownercontacts',
    ] as const;
    const LEVELS = ['disabled', 'read', 'write'] as const;

    it.each(KEYS.flatMap((key) => LEVELS.map((level) => [key, level] as const)))(
      '%s %s: its read and change calls',
      async (key, level) => {
        const tag = `${key.replace(/_/g, '-')}-${level}`;
        const ids = await fixtures(id, cookie, tag);
        // Only the key under test varies; `domain` stays readable so the others are judged alone.
        const grants = {
          ...allKeys('disabled'),
          ...(key === 'domain' ? {} : { domain: 'read' as const }),
          [key]: level,
        };
        const user = await buildUser(t.database.db, account, `m-${tag}`.slice(0, 40), { 'registro.test': grants });
        const c = await t.login(account.domainName, user.username, user.password);
        const { reads, changes } = matrix(key, id, ids, tag);
        const before = await everything(id, cookie);
        for (const [method, path, params] of reads) {
          const { response } = await t.call(method, path, params ?? {}, { cookie: c });
          expect(response.statusCode, `${method} ${path}`).toBe(level === 'disabled' ? 404 : 200);
        }
        for (const [method, path, params] of changes) {
          const { response, body } = await t.call(method, path, params ?? {}, { cookie: c });
          expect(response.statusCode, `${method} ${path}: ${body.system.errors}`).toBe(
            level === 'disabled' ? 404 : level === 'read' ? 403 : 200,
          );
        }
        if (key === 'domain_contacts' || key === 'domain_ownercontacts') {
          const seen = (await t.call<DomainData>('GET', `domain/${id}/`, {}, { cookie: c })).body.data;
          const roles =
            key === 'domain_ownercontacts' ? (['registrant'] as const) : (['admin', 'billing', 'tech'] as const);
          for (const role of roles) {
            if (level === 'disabled') expect(seen[role]).toMatchObject({ id: 0, email: '', phone: '', vat: '' });
            else expect(seen[role].email, role).toMatch(/@/);
          }
        }
        if (level !== 'write') expect(await everything(id, cookie)).toEqual(before);
        // Put the flags back for the next cases (write flipped them).
        if (level === 'write' && (key === 'domain_others' || key === 'domain_transferblock')) {
          for (const [method, path] of changes) await t.call(method, path, {}, { cookie });
        }
      },
    );

    it('never reaches another account’s glue or DNSSEC entries, by either id, and changes nothing there', async () => {
      const theirId = other.resources['ajeno.test'] as number;
      const theirCookie = await t.login(other.domainName, other.username, other.password);
      const theirs = await fixtures(theirId, theirCookie, 'foreign');
      const theirsBefore = await everything(theirId, theirCookie);
      const mineBefore = await everything(id, cookie);
      const attempts: Call[] = [
        ['POST', `domain/${id}/gluerecord/${theirs.glueId}/save/`, { ip: '192.0.2.99', ipv6: '' }],
        ['POST', `domain/${id}/gluerecord/${theirs.glueId}/delete/`],
        ['POST', `domain/${id}/dnssec/${theirs.dsId}/delete/`],
        ['GET', `domain/${theirId}/`],
        ['GET', `domain/${theirId}/gluerecord/list/`],
        ['POST', `domain/${theirId}/gluerecord/${theirs.glueId}/save/`, { ip: '192.0.2.99', ipv6: '' }],
        ['POST', `domain/${theirId}/gluerecord/${theirs.glueId}/delete/`],
        ['GET', `domain/${theirId}/dnssec/list/`],
        ['POST', `domain/${theirId}/dnssec/${theirs.dsId}/delete/`],
        ['POST', `domain/${theirId}/toggle/block/`],
        ['GET', `domain/${theirId}/authcode/`],
        ['POST', `domain/${theirId}/contacts/save/`, contact],
      ];
      for (const [method, path, params] of attempts) {
        const { response } = await t.call(method, path, params ?? {}, { cookie });
        expect(response.statusCode, `${method} ${path}`).toBe(404);
      }
      expect(await everything(theirId, theirCookie)).toEqual(theirsBefore);
      expect(await everything(id, cookie)).toEqual(mineBefore);
    });
  });
});
