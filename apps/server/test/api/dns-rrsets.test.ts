import type { DnsRecord } from '@panel247/contract/dns';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RRset } from '../../src/drivers/dns/dns.driver.ts';
import { dnsRepository } from '../../src/modules/dns/dns.repository.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { ScriptedDnsDriver } from '../support/scripted-dns-driver.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

type One = { dns: DnsRecord; rrsetRetimed?: number };

/** How many records the big zone holds besides the defaults: a change must not read them. */
const BULK = 2_000;

async function fillZone(t: TestApp, serviceId: number): Promise<void> {
  for (let start = 0; start < BULK; start += 500) {
    await t.database.db
      .insertInto('dns_records')
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          service_id: serviceId,
          zona: `host${start + i}`,
          type: 'A',
          ttl: 0,
          priority: 0,
          value: `10.0.${(start + i) >> 8}.${(start + i) & 255}`,
          dynamic_value: '',
          eliminable: 1,
          created_at: 0,
        })),
      )
      .execute();
  }
}

/**
 * A record's create, edit and delete read and send only the RRsets (name and type) they touch:
 * the zone's other records are neither read from the database nor sent to the DNS server, with a
 * server (every RRset sent is recorded) and without one.
 */
describe.each(DATABASE_KINDS)('a DNS change touches only its RRsets (%s)', (kind) => {
  let driver: ScriptedDnsDriver;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let serviceId: number;
  const zone = `rrsets-${kind}.test`;
  let sent: RRset[][];

  beforeAll(async () => {
    driver = new ScriptedDnsDriver();
    t = await buildTestApp(kind, { dnsDriver: driver, config: { 'dns.republishSeconds': 0 } });
    account = await buildAccount(t.database.db, { domainName: zone });
    serviceId = account.resources[zone] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    // The zone is created (and published) on first use, then grows behind the panel's back.
    await t.call('GET', `service/${serviceId}/dns/list/`, {}, { cookie });
    await fillZone(t, serviceId);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Spies on what a call sends and whether it reads the whole zone (from the database or the server). */
  async function watched<T>(call: () => Promise<T>) {
    sent = [];
    const replace = vi.spyOn(driver, 'replaceRRsets').mockImplementation(async (_zone, rrsets) => {
      sent.push(rrsets.map((set) => ({ ...set, contents: [...set.contents].sort() })));
    });
    const readZone = vi.spyOn(driver, 'readZone');
    const list = vi.spyOn(dnsRepository, 'list');
    const result = await call();
    expect(list).not.toHaveBeenCalled();
    expect(readZone).not.toHaveBeenCalled();
    replace.mockRestore();
    return result;
  }

  const create = (params: Record<string, string>) =>
    t.call<One>('POST', `service/${serviceId}/dns/create/`, { ttl: '0', priority: '0', ...params }, { cookie });

  it('create, edit and delete send one RRset each: the one they changed, complete', async () => {
    const first = await watched(() => create({ type: 'A', zona: 'www2', value: '192.0.2.1' }));
    expect(first.body.system.errors).toEqual([]);
    expect(sent).toEqual([[{ name: `www2.${zone}.`, type: 'A', ttl: 3600, contents: ['192.0.2.1'] }]]);

    // A second record at the name: its RRset goes whole (PowerDNS's PATCH replaces an RRset).
    const second = await watched(() => create({ type: 'A', zona: 'www2', value: '192.0.2.2', ttl: '600' }));
    expect(second.body.data.rrsetRetimed).toBe(1);
    expect(sent).toEqual([[{ name: `www2.${zone}.`, type: 'A', ttl: 600, contents: ['192.0.2.1', '192.0.2.2'] }]]);

    // Another type at the same name is another RRset: the A records are not sent again.
    await watched(() => create({ type: 'TXT', zona: 'www2', value: 'hello' }));
    expect(sent).toEqual([[{ name: `www2.${zone}.`, type: 'TXT', ttl: 3600, contents: ['"hello"'] }]]);

    const saved = await watched(() =>
      t.call<One>(
        'POST',
        `service/${serviceId}/dns/${first.body.data.dns.id}/save/`,
        { value: '192.0.2.3', ttl: '0', priority: '0' },
        { cookie },
      ),
    );
    expect(saved.body.system.errors).toEqual([]);
    // One TTL per RRset: the edited record's (the zone's default) is its neighbour's too now.
    expect(saved.body.data.rrsetRetimed).toBe(1);
    expect(sent).toEqual([[{ name: `www2.${zone}.`, type: 'A', ttl: 3600, contents: ['192.0.2.2', '192.0.2.3'] }]]);

    await watched(() => t.call('POST', `service/${serviceId}/dns/${second.body.data.dns.id}/delete/`, {}, { cookie }));
    expect(sent).toEqual([[{ name: `www2.${zone}.`, type: 'A', ttl: 3600, contents: ['192.0.2.3'] }]]);

    // The last record of an RRset goes: an empty RRset, which the driver sends as a DELETE.
    await watched(() => t.call('POST', `service/${serviceId}/dns/${first.body.data.dns.id}/delete/`, {}, { cookie }));
    expect(sent).toEqual([[{ name: `www2.${zone}.`, type: 'A', ttl: 3600, contents: [] }]]);
  });

  it('keeps the rules between a record and its neighbours, and sends nothing for a refused record', async () => {
    const refused = await watched(() => create({ type: 'CNAME', zona: 'www2', value: 'elsewhere.example.org' }));
    expect(refused.response.statusCode).toBe(400);
    expect(refused.body.system.inputs).toEqual(['zona']);
    expect(sent).toEqual([]);
    const twin = await watched(() => create({ type: 'TXT', zona: 'www2', value: 'hello' }));
    expect(twin.body.system.inputs).toEqual(['value']);
    expect(sent).toEqual([]);
  });

  it('leaves the RRsets it did not touch as the server has them', async () => {
    // Changed on the server behind the panel's back; a change elsewhere does not put it back.
    driver.zones.get(zone)?.set(`${zone}. A`, { name: `${zone}.`, type: 'A', ttl: 60, contents: ['198.51.100.9'] });
    await create({ type: 'A', zona: 'other', value: '192.0.2.9' });
    expect(driver.contents(zone, `${zone}.`, 'A')).toEqual(['198.51.100.9']);
    expect(driver.contents(zone, `other.${zone}.`, 'A')).toEqual(['192.0.2.9']);
  });
});

describe.each(DATABASE_KINDS)('without a DNS server, a change reads only its name (%s)', (kind) => {
  let t: TestApp;
  let cookie: string;
  let serviceId: number;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    const account = await buildAccount(t.database.db, { domainName: `embedded-rrsets-${kind}.test` });
    serviceId = account.resources[account.domainName] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    await t.call('GET', `service/${serviceId}/dns/list/`, {}, { cookie });
    await fillZone(t, serviceId);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates, edits and deletes without reading the zone', async () => {
    const list = vi.spyOn(dnsRepository, 'list');
    const created = await t.call<One>(
      'POST',
      `service/${serviceId}/dns/create/`,
      { type: 'A', zona: 'host7', value: '192.0.2.7', ttl: '0', priority: '0' },
      { cookie },
    );
    expect(created.body.system.errors).toEqual([]);
    const id = created.body.data.dns.id;
    const saved = await t.call<One>(
      'POST',
      `service/${serviceId}/dns/${id}/save/`,
      { value: '192.0.2.8', ttl: '0', priority: '0' },
      { cookie },
    );
    expect(saved.body.data.dns).toMatchObject({ zona: 'host7', type: 'A', value: '192.0.2.8' });
    const deleted = await t.call('POST', `service/${serviceId}/dns/${id}/delete/`, {}, { cookie });
    expect(deleted.body.system.errors).toEqual([]);
    expect(list).not.toHaveBeenCalled();
    list.mockRestore();
  });
});
