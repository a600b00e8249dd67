import type { DnsRecord } from '@panel247/contract/dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { toRRsets } from '../../src/modules/dns/zone-rendering.ts';
import { PostgresEventBus } from '../../src/modules/realtime/postgres-event-bus.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { connect, listen, listenerCount, terminateListeners } from '../support/realtime-client.ts';
import { eventually } from '../support/retrying.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

type One = { dns: DnsRecord };
type Answer = Awaited<ReturnType<TestApp['call']>>;

const ZONES = ['alpha.test', 'bravo.test', 'charlie.test', 'delta.test'];
const CREATED = 'Record created';
const UNCONFIRMED =
  'Done in the panel. The DNS server has not confirmed it yet: it will be published as soon as the server answers.';

/**
 * What an operator's stress test does to a deployment: two panel instances on one PostgreSQL
 * database and one real PowerDNS, changes of one zone from both at once, PowerDNS frozen
 * (SIGSTOP) in the middle of changes, and the event listeners' connections cut again and again.
 * After each: the panel's zone is what PowerDNS serves, `dns sync` finds no drift, nothing is
 * doubled, every change the API confirmed is served, and each event arrives once.
 */
describe('two panel instances on one PostgreSQL database and a real PowerDNS', () => {
  let pdns: PowerDns;
  let database: TestDatabase;
  let buses: PostgresEventBus[];
  let apps: TestApp[];
  let cookies: string[];
  let account: BuiltAccount;

  beforeAll(async () => {
    pdns = await startPowerDns();
    database = await createTestDatabase('postgres');
    const url = database.url as string;
    buses = await Promise.all([0, 1, 2].map(() => PostgresEventBus.connect(url, { retryMs: 50 })));
    const config = {
      'dns.driver': 'powerdns',
      'dns.powerdnsApiUrl': pdns.apiUrl,
      'dns.powerdnsApiKey': pdns.apiKey,
      'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
      // Short, so that a frozen PowerDNS costs seconds, not minutes; the republisher runs often.
      'dns.powerdnsTimeoutSeconds': 3,
      'dns.republishSeconds': 1,
    };
    apps = await Promise.all(buses.slice(0, 2).map((events) => buildTestApp('postgres', { database, events, config })));
    account = await buildAccount(database.db, {
      domainName: 'cluster.test',
      resources: Object.fromEntries(ZONES.map((zone) => [zone, { hasDomain: true, hasService: true, hasMail: true }])),
    });
    cookies = await Promise.all(apps.map((t) => t.login(account.domainName, account.username, account.password)));
  });
  afterAll(async () => {
    pdns?.resume();
    for (const t of apps ?? []) await t.close();
    await Promise.all((buses ?? []).map((bus) => bus.close()));
    await database?.destroy();
    await pdns?.stop();
  });

  const id = (zone: string) => account.resources[zone] as number;
  /** A call through instance `i % 2`, as the user's browser tabs on both would make. */
  const call = <T = unknown>(i: number, path: string, params: Record<string, string> = {}) =>
    (apps[i % 2] as TestApp).call<T>('POST', path, params, { cookie: cookies[i % 2] });
  const createTxt = (i: number, zone: string, zona: string, value: string) =>
    call<One>(i, `service/${id(zone)}/dns/create/`, {
      type: 'TXT',
      zona,
      value,
      ttl: '0',
      priority: '0',
      language: 'en',
    });

  /** The zone as PowerDNS serves it (AXFR from loopback), as "name type content" lines. */
  async function served(zone: string): Promise<string[]> {
    const lines = await pdns.dig(zone, 'AXFR', ['+noall', '+answer', '+onesoa']);
    return lines
      .map((line) => line.split(/\s+/))
      .filter((fields) => fields[3] !== 'SOA')
      .map(([name, , , type, ...content]) => `${name} ${type} ${content.join(' ')}`.toLowerCase())
      .sort();
  }

  /** The zone as the panel's database has it, in the same form. */
  async function inPanel(zone: string): Promise<string[]> {
    const rows = await database.db.selectFrom('dns_records').selectAll().where('service_id', '=', id(zone)).execute();
    return toRRsets(rows, zone, 3600)
      .flatMap((set) => set.contents.map((content) => `${set.name} ${set.type} ${content}`.toLowerCase()))
      .sort();
  }

  /** Everything the proof asks of a zone after a burst. */
  async function expectConsistent(zone: string) {
    const panel = await inPanel(zone);
    expect(new Set(panel).size).toBe(panel.length);
    expect(await served(zone)).toEqual(panel);
    expect(await apps[0]?.services.dns.sync(zone, { dryRun: false })).toEqual([
      { zone, missing: [], extra: [], changed: [] },
    ]);
  }

  const unpublishedZones = async () =>
    (
      await database.db
        .selectFrom('dns_zones')
        .select('service_id')
        .where('unpublished_since', 'is not', null)
        .execute()
    ).length;

  it('publishes every zone on first use', async () => {
    for (const zone of ZONES) {
      const { body } = await call(0, `service/${id(zone)}/dns/list/`);
      expect(body.system.errors).toEqual([]);
      await expectConsistent(zone);
    }
  });

  it('parallel restores from both instances leave the defaults once', async () => {
    const zone = 'alpha.test';
    await createTxt(0, zone, 'extra', 'to be restored away');
    const restores = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(i, `service/${id(zone)}/dns/restore/`)),
    );
    for (const { response } of restores) expect(response.statusCode).toBe(200);
    expect(await inPanel(zone)).toHaveLength(9);
    await expectConsistent(zone);
  });

  it('forty creates at one name from both instances, ten at a time, are all served', async () => {
    const zone = 'bravo.test';
    const values = Array.from({ length: 40 }, (_, index) => `parallel-${index}`);
    for (let start = 0; start < values.length; start += 10) {
      const slice = values.slice(start, start + 10);
      const batch = await Promise.all(slice.map((value, i) => createTxt(i, zone, 'parallel', value)));
      // Each one answered "done" is served at once (one that a loaded PowerDNS did not confirm in
      // time says so, and is served once the republisher has been by).
      const servedNow = await pdns.dig(`parallel.${zone}`, 'TXT');
      for (const [i, { body }] of batch.entries()) {
        expect([CREATED, UNCONFIRMED]).toContain(body.system.info[0]);
        if (body.system.info[0] === CREATED) expect(servedNow).toContain(`"${slice[i]}"`);
      }
    }
    await eventually(async () => (await unpublishedZones()) === 0);
    expect((await pdns.dig(`parallel.${zone}`, 'TXT')).sort()).toEqual(values.map((value) => `"${value}"`).sort());
    await expectConsistent(zone);
  });

  it('with PowerDNS frozen mid-change: other calls go on, every answer is true, and the zones are served as the panel has them once it runs again', async () => {
    pdns.pause();
    let settled = 0;
    const creates: { zone: string; value: string; answer: Promise<Answer> }[] = [];
    try {
      for (const [index, zone] of ZONES.entries()) {
        for (const i of [0, 1]) {
          const value = `during the freeze ${index}-${i}`;
          const answer = createTxt(i, zone, 'frozen', value).finally(() => {
            settled += 1;
          });
          creates.push({ zone, value, answer });
        }
      }
      // While every change waits on PowerDNS, unrelated calls and reads of the same zones answer
      // at once: no change holds a database connection while the DNS server is silent.
      for (const i of [0, 1]) {
        for (const path of [
          'permission/list/',
          'user/info/',
          `domain/${id('alpha.test')}/`,
          `service/${id('charlie.test')}/dns/list/`,
        ]) {
          const { response } = await (apps[i] as TestApp).call('GET', path, {}, { cookie: cookies[i] });
          expect(response.statusCode).toBe(200);
        }
      }
      expect(settled).toBe(0);
      // Let the first change of each zone time out while PowerDNS is still frozen.
      await eventually(() => settled >= ZONES.length);
    } finally {
      pdns.resume();
    }

    // Each answer is true: "done" or "done, not confirmed yet" (then it is served once PowerDNS
    // runs again), or "nothing was changed" (an instance that could not even check the zone
    // exists on the server; then it is in neither the panel nor PowerDNS).
    const kept = new Map(ZONES.map((zone) => [zone, [] as string[]]));
    let unconfirmed = 0;
    for (const { zone, value, answer } of creates) {
      const { response, body } = await answer;
      if (response.statusCode === 200) {
        expect([CREATED, UNCONFIRMED]).toContain(body.system.info[0]);
        if (body.system.info[0] === UNCONFIRMED) unconfirmed += 1;
        kept.get(zone)?.push(`"${value}"`);
      } else {
        expect(response.statusCode).toBe(502);
        expect(body.system.errors).toEqual(['The DNS server does not answer. Nothing was changed; try again later.']);
      }
    }
    expect(unconfirmed).toBeGreaterThan(0);

    // The republishers of both instances check the marked zones until they are clean twice.
    await eventually(async () => (await unpublishedZones()) === 0);
    for (const zone of ZONES) {
      expect((await pdns.dig(`frozen.${zone}`, 'TXT')).sort()).toEqual(kept.get(zone)?.sort());
      await expectConsistent(zone);
    }
  });

  it('cutting the event listeners again and again: one listener per instance, and each event arrives once', async () => {
    const hosts = [await listen(apps[0] as TestApp), await listen(apps[1] as TestApp)];
    const clients = await Promise.all(hosts.map((host, i) => connect(host, cookies[i])));
    for (const client of clients) await client.next('hello');
    const cli = new AdminService(database.db, buses[2] as PostgresEventBus, () => Math.floor(Date.now() / 1000));
    await eventually(async () => (await listenerCount(database.db)) === 3);
    for (let loss = 1; loss <= 3; loss += 1) {
      const before = buses.map((bus) => bus.epoch);
      await terminateListeners(database.db);
      await eventually(
        async () =>
          buses.every((bus, i) => bus.epoch !== undefined && bus.epoch !== before[i]) &&
          (await listenerCount(database.db)) === 3,
      );
      for (const client of clients) client.messages.length = 0;
      await cli.grant(account.domainName, account.username, ZONES[loss] as string, { service_ddbb: 'read' });
      for (const client of clients) await client.next('permissions.changed');
      // Give a doubled delivery the time to show.
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const client of clients) {
        expect(client.messages.filter((m) => m.type === 'permissions.changed')).toHaveLength(1);
      }
      expect(await listenerCount(database.db)).toBe(3);
    }
    for (const client of clients) client.socket.close();
  });
});
