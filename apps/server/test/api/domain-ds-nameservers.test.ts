import type { DnssecEntry, DomainData } from '@panel247/contract/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsDriver, DsRecord, RRset } from '../../src/drivers/dns/dns.driver.ts';
import { EmbeddedDnsDriver } from '../../src/drivers/dns/embedded.driver.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const AWAY = ['ns1.fuera.test', 'ns2.fuera.test'];

describe.each(DATABASE_KINDS)('name servers and DS records on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        // a loopback port where nothing listens: names outside the panel's zones never resolve
        'registry.resolvers': ['127.0.0.1:9'],
      },
    });
    account = await buildAccount(t.database.db, {
      domainName: 'firmado.test',
      resources: {
        'firmado.test': { hasDomain: true, hasService: true },
        'fuera.test': { hasDomain: true, hasService: true },
      },
    });
    id = account.resources['firmado.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    // The other operator's name servers resolve through the panel's own zones.
    const away = account.resources['fuera.test'] as number;
    for (const [zona, value] of [
      ['ns1', '192.0.2.1'],
      ['ns2', '192.0.2.2'],
      ['ns3', '192.0.2.3'],
    ] as const) {
      await t.call('POST', `service/${away}/dns/create/`, { type: 'A', zona, value }, { cookie });
    }
  });
  afterAll(() => t.close());

  let digit = 0;
  const addDs = async () => {
    digit += 1;
    const made = await t.call(
      'POST',
      `domain/${id}/dnssec/create/`,
      { keytag: String(1000 + digit), algorithm: '13', digesttype: '2', digest: String(digit % 10).repeat(64) },
      { cookie },
    );
    expect(made.body.system.errors).toEqual([]);
  };
  const dsList = async () =>
    (await t.call<{ dnssec: DnssecEntry[] }>('GET', `domain/${id}/dnssec/list/`, {}, { cookie })).body.data;
  const servers = async () =>
    (await t.call<DomainData>('GET', `domain/${id}/`, {}, { cookie })).body.data.domain.dns.servers;
  const registryDs = async () =>
    (await t.database.db.selectFrom('domain_ds_records').select('digest').where('resource_id', '=', id).execute())
      .length;
  const toProvider = () => t.call('POST', `domain/${id}/dnsedit/`, { 'default-ns': '1' }, { cookie });

  it('tells the dialog how many DS records a move away would strand, and whether they may go', async () => {
    await addDs();
    const init = await t.call('GET', `domains/${id}/dnsinit/`, {}, { cookie });
    expect(init.body.data).toMatchObject({ dsRecords: 1, canRemoveDs: true });
  });

  it('removes them in the same change by default, and says so', async () => {
    const moved = await t.call<{ domain: DomainData['domain'] }>(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'dns[]': AWAY },
      { cookie },
    );
    expect(moved.body.system.errors).toEqual([]);
    expect(moved.body.data.domain.dns.servers).toEqual(AWAY);
    expect(moved.body.system.info).toHaveLength(2);
    expect(moved.body.system.info[1]).toContain('Registros DS eliminados');
    expect(JSON.stringify(await dsList())).not.toContain('1111');
    expect(await registryDs()).toBe(0);
    // on someone else's servers there is nothing at stake any more
    const init = await t.call('GET', `domains/${id}/dnsinit/`, {}, { cookie });
    expect(init.body.data).toMatchObject({ dsRecords: 0 });
  });

  it('keeps them when asked explicitly, and never touches DS when already away', async () => {
    expect((await toProvider()).body.system.errors).toEqual([]);
    await addDs();
    const kept = await t.call('POST', `domain/${id}/dnsedit/`, { 'dns[]': AWAY, ds: 'keep' }, { cookie });
    expect(kept.body.system.errors).toEqual([]);
    expect(kept.body.system.info).toHaveLength(1);
    expect(await servers()).toEqual(AWAY);
    expect(await registryDs()).toBe(1);
    // custom to custom: the DS are the other operator's business, whatever `ds` says
    const again = await t.call(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'dns[]': ['ns1.fuera.test', 'ns3.fuera.test'], ds: 'remove' },
      { cookie },
    );
    expect(again.body.system.errors).toEqual([]);
    expect(await registryDs()).toBe(1);
    // and back to the provider's: nothing is removed either
    expect((await toProvider()).body.system.info).toHaveLength(1);
    expect(await registryDs()).toBe(1);
  });

  it('refuses an unknown choice and writes nothing', async () => {
    const before = await servers();
    const bad = await t.call('POST', `domain/${id}/dnsedit/`, { 'dns[]': AWAY, ds: 'drop' }, { cookie });
    expect(bad.response.statusCode).toBe(400);
    expect(bad.body.system.inputs).toEqual(['ds']);
    expect(await servers()).toEqual(before);
  });

  it('needs the DNSSEC right to remove them; without it only an explicit keep goes through', async () => {
    const user = await buildUser(t.database.db, account, 'solo-dns', {
      'firmado.test': { domain: 'read', domain_dns: 'write', domain_dnssec: 'read' },
    });
    const c = await t.login(account.domainName, user.username, user.password);
    const init = await t.call('GET', `domains/${id}/dnsinit/`, {}, { cookie: c });
    expect(init.body.data).toMatchObject({ dsRecords: 1, canRemoveDs: false });
    const refused = await t.call('POST', `domain/${id}/dnsedit/`, { 'dns[]': AWAY }, { cookie: c });
    expect(refused.response.statusCode).toBe(400);
    expect(refused.body.system.inputs).toEqual(['ds']);
    expect(refused.body.system.errors[0]).toContain('DNSSEC');
    expect(await servers()).toEqual(['ns1.provider.test', 'ns2.provider.test']);
    expect(await registryDs()).toBe(1);
    const kept = await t.call('POST', `domain/${id}/dnsedit/`, { 'dns[]': AWAY, ds: 'keep' }, { cookie: c });
    expect(kept.body.system.errors).toEqual([]);
    expect(await registryDs()).toBe(1);
    await toProvider();
  });
});

/** The embedded driver, plus a zone its server signs (as PowerDNS would): for the offer to publish its DS. */
class SigningDriver implements DnsDriver {
  readonly kind = 'database' as const;
  readonly publishesZones = false;
  readonly signsZones = true;
  private readonly embedded = new EmbeddedDnsDriver();
  ensureZone = () => this.embedded.ensureZone();
  replaceRRsets = (zone: string, rrsets: RRset[]) => this.embedded.replaceRRsets(zone, rrsets);
  removeZone = () => this.embedded.removeZone();
  readZone = () => this.embedded.readZone();
  dsRecords = async () => this.zoneDs;
  readonly zoneDs: DsRecord[] = [
    { keytag: 4711, algorithm: 13, digestType: 2, digest: 'ab'.repeat(32) },
    { keytag: 4711, algorithm: 13, digestType: 4, digest: 'cd'.repeat(48) },
  ];
  down = false;
  async signedDs(zone: string): Promise<DsRecord[]> {
    if (this.down) throw new Error('server down');
    return zone === 'zona-firmada.test' ? this.zoneDs : [];
  }
}

describe.each(DATABASE_KINDS)('back to the provider’s name servers with a signed hosted zone on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  const driver = new SigningDriver();

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: { 'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'], 'registry.resolvers': ['127.0.0.1:9'] },
      dnsDriver: driver,
    });
    account = await buildAccount(t.database.db, {
      domainName: 'zona-firmada.test',
      resources: {
        'zona-firmada.test': { hasDomain: true, hasService: true },
        'ns-ajenos.test': { hasDomain: true, hasService: true },
      },
    });
    id = account.resources['zona-firmada.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    const away = account.resources['ns-ajenos.test'] as number;
    for (const [zona, value] of [
      ['ns1', '192.0.2.1'],
      ['ns2', '192.0.2.2'],
    ] as const) {
      await t.call('POST', `service/${away}/dns/create/`, { type: 'A', zona, value }, { cookie });
    }
    await t.call(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'dns[]': ['ns1.ns-ajenos.test', 'ns2.ns-ajenos.test'] },
      { cookie },
    );
  });
  afterAll(() => t.close());

  const registryDs = async () =>
    (await t.database.db.selectFrom('domain_ds_records').select('digest').where('resource_id', '=', id).execute()).map(
      (row) => row.digest,
    );

  it('offers the zone’s SHA-256 DS the registry lacks, and nothing when the server cannot be asked', async () => {
    const init = await t.call('GET', `domains/${id}/dnsinit/`, {}, { cookie });
    expect(init.body.data).toMatchObject({ zoneDsRecords: 1, dsRecords: 0 });
    driver.down = true;
    try {
      const down = await t.call('GET', `domains/${id}/dnsinit/`, {}, { cookie });
      expect(down.body.data).toMatchObject({ zoneDsRecords: 0 });
    } finally {
      driver.down = false;
    }
  });

  it('does not publish when declined, publishes in the same change by default', async () => {
    const declined = await t.call('POST', `domain/${id}/dnsedit/`, { 'default-ns': '1', publishDs: '0' }, { cookie });
    expect(declined.body.system.errors).toEqual([]);
    expect(await registryDs()).toEqual([]);
    await t.call(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'dns[]': ['ns1.ns-ajenos.test', 'ns2.ns-ajenos.test'] },
      { cookie },
    );
    const back = await t.call<{ domain: DomainData['domain'] }>(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'default-ns': '1' },
      { cookie },
    );
    expect(back.body.system.errors).toEqual([]);
    expect(back.body.data.domain.dns.servers).toEqual(['ns1.provider.test', 'ns2.provider.test']);
    expect(back.body.system.info[1]).toContain('publicados');
    expect(await registryDs()).toEqual(['ab'.repeat(32)]);
    // published once: nothing left to offer, a second save publishes nothing again
    expect((await t.call('GET', `domains/${id}/dnsinit/`, {}, { cookie })).body.data).toMatchObject({
      zoneDsRecords: 0,
      dsRecords: 1,
    });
    expect(
      (await t.call('POST', `domain/${id}/dnsedit/`, { 'default-ns': '1' }, { cookie })).body.system.info,
    ).toHaveLength(1);
    expect(await registryDs()).toEqual(['ab'.repeat(32)]);
  });

  it('publishes nothing for a user without the DNSSEC right, and refuses a bad value', async () => {
    // move away (removing the DS), then back as a user who may change name servers only
    await t.call(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'dns[]': ['ns1.ns-ajenos.test', 'ns2.ns-ajenos.test'] },
      { cookie },
    );
    expect(await registryDs()).toEqual([]);
    const user = await buildUser(t.database.db, account, 'solo-ns', {
      'zona-firmada.test': { domain: 'read', domain_dns: 'write', domain_dnssec: 'read' },
    });
    const c = await t.login(account.domainName, user.username, user.password);
    const back = await t.call('POST', `domain/${id}/dnsedit/`, { 'default-ns': '1' }, { cookie: c });
    expect(back.body.system.errors).toEqual([]);
    expect(await registryDs()).toEqual([]);
    const bad = await t.call('POST', `domain/${id}/dnsedit/`, { 'default-ns': '1', publishDs: 'yes' }, { cookie });
    expect(bad.body.system.inputs).toEqual(['publishDs']);
  });
});
