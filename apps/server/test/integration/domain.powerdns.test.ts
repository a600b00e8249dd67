import type { DnssecEntry, DomainData } from '@panel247/contract/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { PowerDnsDriver } from '../../src/drivers/dns/powerdns.driver.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { dnskeyRdata, dsDigestSha256, keyTag } from '../../src/modules/domain/dnssec-keys.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('domain name servers checked through a real PowerDNS (panel on %s)', (kind) => {
  let pdns: PowerDns;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;

  beforeAll(async () => {
    pdns = await startPowerDns();
    // A zone only PowerDNS knows (not in the panel's database): names must resolve through DNS.
    const driver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    await driver.ensureZone('external-ns.test', ['ns1.external-ns.test']);
    await driver.replaceRRsets('external-ns.test', [
      { name: 'ns1.external-ns.test.', type: 'A', ttl: 60, contents: ['192.0.2.41'] },
      { name: 'ns2.external-ns.test.', type: 'AAAA', ttl: 60, contents: ['2001:db8::42'] },
    ]);
    t = await buildTestApp(kind, {
      config: {
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': pdns.apiUrl,
        'dns.powerdnsApiKey': pdns.apiKey,
        'registry.resolvers': [`127.0.0.1:${pdns.dnsPort}`],
      },
    });
    account = await buildAccount(t.database.db, { domainName: `signed-${kind}.test` });
    id = account.resources[`signed-${kind}.test`] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await pdns?.stop();
  });

  it('accepts servers that resolve (A or AAAA) and refuses one that does not', async () => {
    const ok = await t.call<{ domain: DomainData['domain'] }>(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'default-ns': '0', 'dns[]': ['ns1.external-ns.test', 'ns2.external-ns.test'] },
      { cookie },
    );
    expect(ok.body.system.errors).toEqual([]);
    expect(ok.body.data.domain.dns.servers).toEqual(['ns1.external-ns.test', 'ns2.external-ns.test']);
    const bad = await t.call(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'dns[]': ['ns1.external-ns.test', 'ns9.external-ns.test'] },
      { cookie },
    );
    expect(bad.body.system).toMatchObject({ valid: false, inputs: ['dns[1]'] });
  });

  it('asks only the configured resolver: a CNAME it serves is followed, the panel’s database is not asked', async () => {
    const driver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    await driver.replaceRRsets('external-ns.test', [
      { name: 'alias.external-ns.test.', type: 'CNAME', ttl: 60, contents: ['ns1.external-ns.test.'] },
    ]);
    // An address only the panel's database holds (a zone written behind PowerDNS's back): with the
    // powerdns driver PowerDNS is the authority, so this name must not count as resolving.
    const other = await buildAccount(t.database.db, { domainName: `dbonly-${kind}.test` });
    const otherId = other.resources[other.domainName] as number;
    await t.database.db.insertInto('dns_zones').values({ service_id: otherId, created_at: 0 }).execute();
    await t.database.db
      .insertInto('dns_records')
      .values({
        service_id: otherId,
        zona: 'ns1',
        type: 'A',
        ttl: 0,
        priority: 0,
        value: '192.0.2.99',
        dynamic_value: '',
        eliminable: 1,
        created_at: 0,
      })
      .execute();
    expect(await pdns.dig(`ns1.dbonly-${kind}.test`, 'A')).toEqual([]);
    const refused = await t.call(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'dns[]': ['alias.external-ns.test', `ns1.dbonly-${kind}.test`] },
      { cookie },
    );
    expect(refused.body.system).toMatchObject({ valid: false, inputs: ['dns[1]'] });
    const followed = await t.call<{ domain: DomainData['domain'] }>(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'dns[]': ['alias.external-ns.test', 'ns2.external-ns.test'] },
      { cookie },
    );
    expect(followed.body.system.errors).toEqual([]);
    expect(followed.body.data.domain.dns.servers).toEqual(['alias.external-ns.test', 'ns2.external-ns.test']);
  });

  it('imports the DS records of the zone PowerDNS signs, in one click, for a zone never opened before', async () => {
    // Nothing has asked for the zone yet: the import creates and signs it.
    expect(await pdns.dig(`signed-${kind}.test`, 'SOA')).toEqual([]);
    const init = await t.call('GET', `domain/${id}/dnssec/createinit/`, {}, { cookie });
    expect(init.body.data).toMatchObject({ zoneKeysAvailable: true });
    const imported = await t.call<{ dnssec: DnssecEntry[] }>('POST', `domain/${id}/dnssec/fromzone/`, {}, { cookie });
    expect(imported.body.data.dnssec).toHaveLength(1);
    const [ds] = imported.body.data.dnssec;
    expect(ds).toMatchObject({ algorithm: 13, digesttype: 2 });
    const answer = await pdns.dig(`signed-${kind}.test`, 'DNSKEY', ['+short']);
    expect(answer.some((line) => line.startsWith('257 3 13 '))).toBe(true);
    // Our own DNSKEY → DS computation (used for public-key registries) agrees with PowerDNS.
    const [flags, protocol, algorithm, ...key] = (answer.find((line) => line.startsWith('257 3 13 ')) as string).split(
      ' ',
    );
    const rdata = dnskeyRdata(Number(flags), Number(protocol), Number(algorithm), Buffer.from(key.join(''), 'base64'));
    expect({ keytag: keyTag(rdata), digest: dsDigestSha256(`signed-${kind}.test`, rdata) }).toEqual({
      keytag: ds?.keytag,
      digest: ds?.digest,
    });
    const again = await t.call<{ dnssec: DnssecEntry[] }>('POST', `domain/${id}/dnssec/fromzone/`, {}, { cookie });
    expect(again.body.data.dnssec).toEqual([]);
  });

  it('name servers and the signed zone’s DS change together: removed when moving away (or kept on request), published when coming back', async () => {
    const away = { 'dns[]': ['ns1.external-ns.test', 'ns2.external-ns.test'] };
    const registryDs = async () =>
      (
        await t.database.db.selectFrom('domain_ds_records').select('digest').where('resource_id', '=', id).execute()
      ).map((row) => row.digest);
    /** The SHA-256 DS of the key PowerDNS signs the zone with, as dig shows it. */
    const zoneDs = async () => {
      const answer = await pdns.dig(`signed-${kind}.test`, 'DNSKEY', ['+short']);
      const ksk = answer.find((line) => line.startsWith('257 3 13 ')) as string;
      const [flags, protocol, algorithm, ...key] = ksk.split(' ');
      const rdata = dnskeyRdata(
        Number(flags),
        Number(protocol),
        Number(algorithm),
        Buffer.from(key.join(''), 'base64'),
      );
      return dsDigestSha256(`signed-${kind}.test`, rdata);
    };
    // on the provider's servers with the zone's DS published at the registry
    expect(
      (await t.call('POST', `domain/${id}/dnsedit/`, { 'default-ns': '1' }, { cookie })).body.system.errors,
    ).toEqual([]);
    await t.call('POST', `domain/${id}/dnssec/fromzone/`, {}, { cookie });
    const signedWith = await zoneDs();
    expect(await registryDs()).toEqual([signedWith]);
    const init = await t.call('GET', `domains/${id}/dnsinit/`, {}, { cookie });
    expect(init.body.data).toMatchObject({ dsRecords: 1, canRemoveDs: true });

    // away, by default: the DS go with the change; PowerDNS still signs the zone it keeps serving
    const moved = await t.call('POST', `domain/${id}/dnsedit/`, away, { cookie });
    expect(moved.body.system.errors).toEqual([]);
    expect(moved.body.system.info).toHaveLength(2);
    expect(await registryDs()).toEqual([]);
    expect(await zoneDs()).toBe(signedWith);

    // the zone is signed and the registry lacks its DS: back to the provider's servers publishes
    // them in the same change (read from PowerDNS without touching its keys)
    const offer = await t.call('GET', `domains/${id}/dnsinit/`, {}, { cookie });
    expect(offer.body.data).toMatchObject({ dsRecords: 0, zoneDsRecords: 1 });
    const back = await t.call('POST', `domain/${id}/dnsedit/`, { 'default-ns': '1' }, { cookie });
    expect(back.body.system.info).toHaveLength(2);
    expect(await registryDs()).toEqual([signedWith]);
    expect(await zoneDs()).toBe(signedWith);

    // and away keeping them: the registry still holds the zone's DS
    const kept = await t.call<{ domain: DomainData['domain'] }>(
      'POST',
      `domain/${id}/dnsedit/`,
      { ...away, ds: 'keep' },
      { cookie },
    );
    expect(kept.body.system.errors).toEqual([]);
    expect(kept.body.data.domain.dns.servers).toEqual(away['dns[]']);
    expect(await registryDs()).toEqual([signedWith]);
  });

  it.each([
    ['disabled', 404, false],
    ['read', 403, false],
  ] as const)('the import also needs service_dnszone action (%s → %i)', async (level, status, offered) => {
    const user = await buildUser(t.database.db, account, `ds-${level}`, {
      [`signed-${kind}.test`]: { ...allKeys('write'), service_dnszone: level },
    });
    const c = await t.login(account.domainName, user.username, user.password);
    const init = await t.call('GET', `domain/${id}/dnssec/createinit/`, {}, { cookie: c });
    expect(init.body.data).toMatchObject({ zoneKeysAvailable: offered });
    const before = await t.call<{ dnssec: DnssecEntry[] }>('GET', `domain/${id}/dnssec/list/`, {}, { cookie: c });
    const refused = await t.call('POST', `domain/${id}/dnssec/fromzone/`, {}, { cookie: c });
    expect(refused.response.statusCode).toBe(status);
    const after = await t.call<{ dnssec: DnssecEntry[] }>('GET', `domain/${id}/dnssec/list/`, {}, { cookie: c });
    expect(after.body.data.dnssec).toEqual(before.body.data.dnssec);
  });
});
