import type { DnsRecord } from '@panel247/contract/dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zonePublishLog } from '../../src/modules/dns/zone-publish-log.repository.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { eventually } from '../support/retrying.ts';
import { ScriptedDnsDriver } from '../support/scripted-dns-driver.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

type One = { dns: DnsRecord };
type List = { dnss: DnsRecord[]; total: number };

/**
 * What the user is told, and what the database and the DNS server hold, when the server refuses a
 * change, is down, does not answer in time, or is slow, with one instance or two on one database:
 * each change goes through its zone's `dns.publish-zone` job of the work log. The server is
 * scripted here; test/integration/dns.powerdns.test.ts does the same with PowerDNS.
 */
describe.each(DATABASE_KINDS)('DNS changes reach the server, or are undone, or are said to be pending (%s)', (kind) => {
  let driver: ScriptedDnsDriver;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let serviceId: number;
  const zone = `publish-${kind}.test`;

  beforeAll(async () => {
    driver = new ScriptedDnsDriver();
    // The zone's checks after an unconfirmed change are run by hand here (an hour apart otherwise).
    t = await buildTestApp(kind, { dnsDriver: driver, config: { 'dns.republishSeconds': 3600 } });
    account = await buildAccount(t.database.db, { domainName: zone });
    serviceId = account.resources[zone] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (value: string, zona: string, language = 'en') =>
    t.call<One>(
      'POST',
      `service/${serviceId}/dns/create/`,
      { type: 'TXT', zona, value, ttl: '0', priority: '0', language },
      { cookie },
    );
  const records = async () =>
    (await t.call<List>('GET', `service/${serviceId}/dns/list/`, {}, { cookie })).body.data.dnss;
  const unpublished = async () =>
    (
      await t.database.db
        .selectFrom('dns_zones')
        .select('unpublished_since')
        .where('service_id', '=', serviceId)
        .executeTakeFirstOrThrow()
    ).unpublished_since;
  /** What the server serves for a name's TXT records, without the quotes. */
  const served = (zona: string) =>
    driver.contents(zone, `${zona}.${zone}.`, 'TXT').map((content) => content.replace(/^"|"$/g, ''));
  /** This instance's publishing of the zone, run now, as its job would. */
  const publishNow = () => t.services.dns.publishZone({ serviceId, name: zone });
  const inDatabase = async (zona: string) =>
    (await records())
      .filter((r) => r.zona === zona && r.type === 'TXT')
      .map((r) => r.value)
      .sort();

  it('publishes the zone on first use and leaves it unmarked', async () => {
    expect(await records()).toHaveLength(9);
    expect(driver.zones.get(zone)?.size).toBeGreaterThan(0);
    expect(await unpublished()).toBeNull();
  });

  it('puts a refused change back: field error, the list as before, the zone unmarked', async () => {
    const before = await records();
    driver.script('refuse');
    const { response, body } = await create('refused', 'refused', 'en');
    expect(response.statusCode).toBe(400);
    expect(body.system).toMatchObject({
      inputs: ['zona'],
      errors: [
        'The DNS server holds another record at this name that cannot coexist with this one (for example a CNAME). Nothing was changed.',
      ],
    });
    expect(await records()).toEqual(before);
    expect(await unpublished()).toBeNull();

    const edited = before.find((r) => r.type === 'A') as DnsRecord;
    driver.script('refuse');
    const saved = await t.call(
      'POST',
      `service/${serviceId}/dns/${edited.id}/save/`,
      { value: '192.0.2.99', ttl: '0' },
      { cookie },
    );
    expect(saved.body.system).toMatchObject({ inputs: ['value'] });
    expect(saved.response.statusCode).toBe(400);
    driver.script('refuse');
    const wiped = await t.call('POST', `service/${serviceId}/dns/delete/`, {}, { cookie });
    expect(wiped.response.statusCode).toBe(502);
    driver.script('refuse');
    const removed = await t.call('POST', `service/${serviceId}/dns/${edited.id}/delete/`, {}, { cookie });
    expect(removed.response.statusCode).toBe(502);
    expect(await records()).toEqual(before);
    expect(await unpublished()).toBeNull();
    expect(driver.planned).toBe(0);
  });

  it('keeps a change the server cannot take now, says it is being applied, and publishes it once the server answers', async () => {
    driver.script('down');
    const { response, body } = await create('unreachable', 'unreachable', 'es');
    expect(response.statusCode).toBe(200);
    expect(body.system.info).toEqual([
      'Hecho en el panel. El servidor DNS aún no lo ha confirmado: se publicará en cuanto responda.',
    ]);
    expect(await inDatabase('unreachable')).toEqual(['unreachable']);
    expect(await unpublished()).not.toBeNull();
    // The work log tries the zone's job again (with backoff) and the server answers this time.
    await eventually(async () => (await unpublished()) === null);
    expect(served('unreachable')).toEqual(['unreachable']);
    expect(await t.services.dns.sync(zone, { dryRun: true })).toEqual([{ zone, missing: [], extra: [], changed: [] }]);
  });

  it('lists the zone as being applied, then as failing with why, and publishes it at the user\'s "try again"', async () => {
    const publishing = async () =>
      (await t.call<List & { publishing: unknown }>('GET', `service/${serviceId}/dns/list/`, {}, { cookie })).body.data
        .publishing;
    expect(await publishing()).toBeNull();
    driver.script('hang');
    const hung = create('hung', 'hung');
    await until(() => driver.asleep === 1);
    expect(await publishing()).toMatchObject({ state: 'pending', reason: null });
    driver.wake();
    await hung;
    expect(await publishing()).toBeNull();

    driver.script('down');
    await create('while down', 'tryagain');
    expect(await publishing()).toMatchObject({ state: 'failing', reason: 'down' });
    const again = await t.call('POST', `service/${serviceId}/dns/publish/`, { language: 'en' }, { cookie });
    expect(again.response.statusCode).toBe(200);
    expect(again.body.system.info).toEqual(['Every change of the zone is published on the DNS server']);
    expect(served('tryagain')).toEqual(['while down']);
    expect(await publishing()).toBeNull();
    // Nothing to publish: the same answer, at once.
    expect(
      (await t.call('POST', `service/${serviceId}/dns/publish/`, { language: 'en' }, { cookie })).body.system.info,
    ).toEqual(['Every change of the zone is published on the DNS server']);
  });

  it('keeps a change the server did not confirm, says so, and the zone is checked until a late write is repaired', async () => {
    driver.script('late');
    const late = await create('late', 'late');
    expect(late.response.statusCode).toBe(200);
    expect(late.body.system.info).toEqual([
      'Done in the panel. The DNS server has not confirmed it yet: it will be published as soon as the server answers.',
    ]);
    expect(await unpublished()).not.toBeNull();
    // Published by the job's retry with the server answering again (it gets both records: the
    // database has both); then the late request, which held only the first, lands over it.
    const next = await create('next', 'late');
    expect(next.body.system.info).toEqual(['Record created']);
    expect(served('late')).toEqual(['late', 'next']);
    driver.wake();
    expect(served('late')).toEqual(['late']);
    expect(await inDatabase('late')).toEqual(['late', 'next']);

    // The zone still owes a clean check: the next pass repairs the late write, the one after
    // finds the zone right and the mark goes.
    expect(await unpublished()).not.toBeNull();
    await publishNow();
    expect(served('late')).toEqual(['late', 'next']);
    expect(await unpublished()).not.toBeNull();
    await publishNow();
    expect(await unpublished()).toBeNull();
  });

  it('a change waiting on a slow server holds up only the next change of its zone, no other call', async () => {
    driver.script('hang');
    let slowDone = false;
    const slow = create('slow', 'slow').then((answer) => {
      slowDone = true;
      return answer;
    });
    await until(() => driver.asleep === 1);
    let queuedDone = false;
    const queued = create('queued', 'slow').then((answer) => {
      queuedDone = true;
      return answer;
    });
    // Reads of the same zone, other calls and the database's writes all go on meanwhile (the
    // queued change is in the database; it waits only for the server).
    await eventually(async () => (await inDatabase('slow')).length === 2);
    const permissions = await t.call('GET', 'permission/list/', {}, { cookie });
    expect(permissions.response.statusCode).toBe(200);
    const other = await buildAccount(t.database.db, { domainName: `other-${kind}.test` });
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    const otherId = other.resources[other.domainName] as number;
    const elsewhere = await t.call<One>(
      'POST',
      `service/${otherId}/dns/create/`,
      { type: 'TXT', zona: 'elsewhere', value: 'not held up', ttl: '0', priority: '0' },
      { cookie: otherCookie },
    );
    expect(elsewhere.body.system.errors).toEqual([]);
    expect(slowDone).toBe(false);
    expect(queuedDone).toBe(false);

    driver.wake();
    expect((await slow).body.system.errors).toEqual([]);
    expect((await queued).body.system.errors).toEqual([]);
    expect(served('slow')).toEqual(['queued', 'slow']);
  });

  it('publishes, from the round, a change whose job was never sent (its instance stopped after the commit)', async () => {
    await t.database.db.transaction().execute(async (trx) => {
      const [row] = await trx
        .insertInto('dns_records')
        .values({
          service_id: serviceId,
          zona: 'crash',
          type: 'TXT',
          ttl: 0,
          priority: 0,
          value: 'after a crash',
          dynamic_value: '',
          eliminable: 1,
          created_at: 0,
        })
        .returning('id')
        .execute();
      await zonePublishLog.append(
        trx,
        serviceId,
        { touched: [{ zona: 'crash', type: 'TXT' }] },
        { remove: [row?.id as number], restore: [] },
        0,
      );
    });
    expect(served('crash')).toEqual([]);
    expect(await t.services.dns.republish()).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await unpublished()) === null);
    expect(served('crash')).toEqual(['after a crash']);
  });

  it('two instances on one database: parallel creates at one name are all served, parallel restores leave the defaults once', async () => {
    // One DNS server for the three instances (any of them may run a zone's job), slow by moments.
    const jittery = driver;
    jittery.jitterMs = 15;
    const first = await buildTestApp(kind, { database: t.database, dnsDriver: jittery, config: t.config });
    const second = await buildTestApp(kind, { database: t.database, dnsDriver: jittery, config: t.config });
    try {
      const cookies = await Promise.all(
        [first, second].map((app) => app.login(account.domainName, account.username, account.password)),
      );
      const apps = [first, second] as const;
      const values = Array.from({ length: 30 }, (_, index) => `parallel-${index}`);
      const answers = await Promise.all(
        values.map((value, index) =>
          apps[index % 2]?.call<One>(
            'POST',
            `service/${serviceId}/dns/create/`,
            { type: 'TXT', zona: 'parallel', value, ttl: '0', priority: '0' },
            { cookie: cookies[index % 2] },
          ),
        ),
      );
      for (const answer of answers) expect(answer?.body.system.errors).toEqual([]);
      expect(jittery.contents(zone, `parallel.${zone}.`, 'TXT')).toEqual(values.map((v) => `"${v}"`).sort());

      const restores = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          apps[index % 2]?.call('POST', `service/${serviceId}/dns/restore/`, {}, { cookie: cookies[index % 2] }),
        ),
      );
      for (const restore of restores) expect(restore?.response.statusCode).toBe(200);
      const restored = (await records()).map((r) => `${r.zona} ${r.type} ${r.priority} ${r.value}`);
      expect(restored).toHaveLength(9);
      expect(new Set(restored).size).toBe(9);
      expect(jittery.contents(zone, `parallel.${zone}.`, 'TXT')).toEqual([]);
    } finally {
      jittery.jitterMs = 0;
      await first.close();
      await second.close();
    }
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
