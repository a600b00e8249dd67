import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DnsRecord } from '@panel247/contract/dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PowerDns, type PowerDnsBackend, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import type { DatabaseKind } from '../../src/db/database.ts';
import { DnsRefusedError } from '../../src/drivers/dns/dns.driver.ts';
import { PowerDnsDriver } from '../../src/drivers/dns/powerdns.driver.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { eventually } from '../support/retrying.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS, TEST_PG_ADMIN_URL, type TestDatabase } from '../support/test-database.ts';

const run = promisify(execFile);
type One = { dns: DnsRecord };
type List = { dnss: DnsRecord[] };

/** PowerDNS's own database follows the panel's: SQLite with SQLite, its gpgsql backend with PostgreSQL. */
function powerDnsBackendFor(kind: DatabaseKind): PowerDnsBackend {
  return kind === 'sqlite'
    ? { kind: 'sqlite' }
    : { kind: 'postgres', adminUrl: TEST_PG_ADMIN_URL, name: `p247_test_pdns_${randomBytes(3).toString('hex')}` };
}

/** Drops what powerDnsBackendFor made on PostgreSQL (the role and database are the cluster's). */
async function dropPowerDnsBackend(backend: PowerDnsBackend): Promise<void> {
  if (backend.kind !== 'postgres') return;
  await run('psql', ['-X', '-q', '-d', backend.adminUrl, '-c', `DROP DATABASE IF EXISTS ${backend.name}`]);
  await run('psql', ['-X', '-q', '-d', backend.adminUrl, '-c', `DROP ROLE IF EXISTS ${backend.name}`]);
}

describe.each(DATABASE_KINDS)('DNS records served by a real PowerDNS (panel on %s)', (kind) => {
  const backend = powerDnsBackendFor(kind);
  let pdns: PowerDns;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let serviceId: number;
  const zone = `pdns-${kind}.test`;

  beforeAll(async () => {
    pdns = await startPowerDns(undefined, backend);
    t = await buildTestApp(kind, {
      config: {
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': pdns.apiUrl,
        'dns.powerdnsApiKey': pdns.apiKey,
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        // A loaded CI machine once kept PowerDNS past the default 5 s on a 2,000-record zone: the
        // change was then unconfirmed and the republisher rewrote the zone these tests check.
        'dns.powerdnsTimeoutSeconds': 30,
      },
    });
    account = await buildAccount(t.database.db, { domainName: zone });
    serviceId = account.resources[zone] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await pdns?.stop();
    await dropPowerDnsBackend(backend);
  });

  const create = async (params: Record<string, string>) => {
    const { body } = await t.call<One>(
      'POST',
      `service/${serviceId}/dns/create/`,
      { ttl: '0', priority: '20', ...params },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    return body.data.dns;
  };
  const records = async () =>
    (await t.call<List>('GET', `service/${serviceId}/dns/list/`, {}, { cookie })).body.data.dnss;

  it('publishes the default zone with SOA and the provider’s name servers on first use', async () => {
    expect(await records()).toHaveLength(9);
    expect((await pdns.dig(zone, 'NS')).sort()).toEqual(['ns1.provider.test.', 'ns2.provider.test.']);
    expect(await pdns.dig(zone, 'A')).toEqual(['192.0.2.10']);
    expect(await pdns.dig(zone, 'MX')).toEqual([`10 mail.${zone}.`]);
    expect((await pdns.dig(zone, 'SOA'))[0]).toMatch(/^ns1\.provider\.test\. hostmaster\./);
  });

  it('answers every record type created through the panel', async () => {
    const long = 'k='.concat('x'.repeat(300));
    await create({ type: 'A', zona: 'web', value: '203.0.113.7' });
    await create({ type: 'AAAA', zona: 'web', value: '2001:db8::7' });
    await create({ type: 'CNAME', zona: 'blog', value: `web.${zone}` });
    await create({ type: 'MX', zona: '', value: 'mx2.example.org', priority: '30' });
    await create({ type: 'NS', zona: 'delegated', value: 'ns.example.org' });
    await create({ type: 'ANAME', zona: 'flat', value: `web.${zone}` });
    await create({ type: 'SRV', zona: '_sip._tcp', value: '20 5060 sip.example.org' });
    await create({ type: 'CAA', zona: '', value: '0 issue "letsencrypt.org"' });
    await create({ type: 'TXT', zona: 'long', value: long });
    // Stored as ::ffff:192.0.2.1 (RFC 5952 section 5), which PowerDNS's API only takes in hex.
    await create({ type: 'AAAA', zona: 'mapped', value: '::ffff:c000:201' });

    expect(await pdns.dig(`web.${zone}`, 'A')).toEqual(['203.0.113.7']);
    expect(await pdns.dig(`web.${zone}`, 'AAAA')).toEqual(['2001:db8::7']);
    expect(await pdns.dig(`blog.${zone}`, 'CNAME')).toEqual([`web.${zone}.`]);
    expect((await pdns.dig(zone, 'MX')).sort()).toEqual([`10 mail.${zone}.`, '30 mx2.example.org.']);
    expect(await pdns.dig(`delegated.${zone}`, 'NS', ['+noall', '+authority'])).toEqual([
      expect.stringMatching(/^delegated\.pdns-\w+\.test\.\s+3600\s+IN\s+NS\s+ns\.example\.org\.$/),
    ]);
    expect(await pdns.dig(`flat.${zone}`, 'A')).toEqual(['203.0.113.7']);
    expect(await pdns.dig(`_sip._tcp.${zone}`, 'SRV')).toEqual(['20 20 5060 sip.example.org.']);
    expect(await pdns.dig(zone, 'CAA')).toEqual(['0 issue "letsencrypt.org"']);
    expect(await pdns.dig(`long.${zone}`, 'TXT')).toEqual([`"${long.slice(0, 255)}" "${long.slice(255)}"`]);
    expect(await pdns.dig(`mapped.${zone}`, 'AAAA')).toEqual(['::ffff:192.0.2.1']);
    expect((await records()).find((r) => r.zona === 'mapped')?.value).toBe('::ffff:192.0.2.1');
    // PowerDNS prints it with the dotted tail too: no drift.
    expect(await t.services.dns.sync(zone, { dryRun: false })).toEqual([{ zone, missing: [], extra: [], changed: [] }]);
  });

  it('reflects an edit and a delete at once', async () => {
    const record = await create({ type: 'A', zona: 'moving', value: '198.51.100.1' });
    expect(await pdns.dig(`moving.${zone}`, 'A')).toEqual(['198.51.100.1']);
    await t.call(
      'POST',
      `service/${serviceId}/dns/${record.id}/save/`,
      { value: '198.51.100.2', ttl: '600' },
      { cookie },
    );
    expect(await pdns.dig(`moving.${zone}`, 'A')).toEqual(['198.51.100.2']);
    expect((await pdns.dig(`moving.${zone}`, 'A', ['+noall', '+answer']))[0]).toMatch(/\s600\s+IN\s+A\s/);
    await t.call('POST', `service/${serviceId}/dns/${record.id}/delete/`, {}, { cookie });
    expect(await pdns.dig(`moving.${zone}`, 'A')).toEqual([]);
  });

  it('passes named-checkzone with the exported zone', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${serviceId}/dns/export/`,
      headers: { cookie, 'x-dd-request': '1' },
    });
    const file = path.join(tmpdir(), `${zone}-${Date.now()}.zone`);
    writeFileSync(file, response.body);
    const { stdout } = await run('named-checkzone', ['-i', 'local', zone, file]);
    expect(stdout).toMatch(/OK/);
  });

  it('deletes all eliminable records and restores the defaults on the server', async () => {
    await t.call('POST', `service/${serviceId}/dns/delete/`, {}, { cookie });
    expect(await pdns.dig(`web.${zone}`, 'A')).toEqual([]);
    expect(await pdns.dig(zone, 'MX')).toEqual([]);
    expect((await pdns.dig(zone, 'NS')).length).toBe(2);
    await t.call('POST', `service/${serviceId}/dns/restore/`, {}, { cookie });
    expect(await pdns.dig(zone, 'MX')).toEqual([`10 mail.${zone}.`]);
    expect(await pdns.dig(`www.${zone}`, 'CNAME')).toEqual([`${zone}.`]);
  });

  it('maps a content PowerDNS refuses (HTTP 422) to a refusal about the content', async () => {
    const driver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    const refused = await driver
      .replaceRRsets(zone, [{ name: `bad.${zone}.`, type: 'A', ttl: 60, contents: ['not-an-address'] }])
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DnsRefusedError);
    expect(refused).toMatchObject({ reason: 'content', messageKey: 'dns.error.refused' });
    expect(await pdns.dig(`bad.${zone}`, 'A')).toEqual([]);
  });

  it('rolls a change back when PowerDNS refuses it (422): field error, inputs, record list unchanged', async () => {
    const driver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    // A CNAME planted behind the panel's back: the panel's database knows nothing of it, so its own
    // CNAME rule lets the A record through and PowerDNS is the one that says no.
    await driver.replaceRRsets(zone, [
      { name: `planted.${zone}.`, type: 'CNAME', ttl: 60, contents: ['elsewhere.example.org.'] },
    ]);
    const before = await records();
    const created = await t.call(
      'POST',
      `service/${serviceId}/dns/create/`,
      { type: 'A', zona: 'planted', value: '192.0.2.66', ttl: '0', priority: '0' },
      { cookie },
    );
    expect(created.response.statusCode).toBe(400);
    expect(created.body.system).toMatchObject({
      valid: false,
      inputs: ['zona'],
      errors: [
        'El servidor DNS tiene en este nombre otro registro que no puede convivir con este (por ejemplo, un CNAME). No se ha cambiado nada.',
      ],
    });
    expect(await records()).toEqual(before);
    expect(await pdns.dig(`planted.${zone}`, 'A')).not.toContain('192.0.2.66');

    // An edit refused the same way: the edit form has no name field, so the error is the value's.
    const txt = await create({ type: 'TXT', zona: 'clash', value: 'first' });
    await driver.replaceRRsets(zone, [
      { name: `clash.${zone}.`, type: 'TXT', ttl: 3600, contents: [] },
      { name: `clash.${zone}.`, type: 'CNAME', ttl: 60, contents: ['elsewhere.example.org.'] },
    ]);
    const listed = await records();
    const saved = await t.call(
      'POST',
      `service/${serviceId}/dns/${txt.id}/save/`,
      { value: 'second', ttl: '600', language: 'en' },
      { cookie },
    );
    expect(saved.response.statusCode).toBe(400);
    expect(saved.body.system).toMatchObject({ valid: false, inputs: ['value'] });
    expect(saved.body.system.errors[0]).toMatch(/^The DNS server holds another record at this name/);
    expect(await records()).toEqual(listed);
    expect(listed.find((r) => r.id === txt.id)).toMatchObject({ value: 'first', ttl: 0 });

    // Put the server back the way the panel has it; sync agrees.
    await driver.replaceRRsets(zone, [
      { name: `planted.${zone}.`, type: 'CNAME', ttl: 60, contents: [] },
      { name: `clash.${zone}.`, type: 'CNAME', ttl: 60, contents: [] },
    ]);
    await driver.replaceRRsets(zone, [{ name: `clash.${zone}.`, type: 'TXT', ttl: 3600, contents: ['"first"'] }]);
    expect(await t.services.dns.sync(zone, { dryRun: false })).toEqual([{ zone, missing: [], extra: [], changed: [] }]);
    await t.call('POST', `service/${serviceId}/dns/${txt.id}/delete/`, {}, { cookie });
  });

  it('with PowerDNS down, keeps a change and says it is being applied; published once PowerDNS answers, sync then finds no drift', async () => {
    const before = await records();
    await pdns.stop();
    const { response, body } = await t.call<One>(
      'POST',
      `service/${serviceId}/dns/create/`,
      { type: 'A', zona: 'down', value: '192.0.2.77', ttl: '0' },
      { cookie },
    );
    expect(response.statusCode).toBe(200);
    expect(body.system.info).toEqual([
      'Hecho en el panel. El servidor DNS aún no lo ha confirmado: se publicará en cuanto responda.',
    ]);
    const kept = await records();
    expect(kept).toHaveLength(before.length + 1);

    // Reads never need the server: a fresh instance (nothing cached about PowerDNS) answers the
    // list, one record and the export from the database; a service whose zone does not exist yet
    // gets it in the database, to be published when PowerDNS answers.
    const fresh = await buildTestApp(kind, { database: t.database, config: t.config });
    try {
      const c = await fresh.login(account.domainName, account.username, account.password);
      const listed = await fresh.call<List>('GET', `service/${serviceId}/dns/list/`, {}, { cookie: c });
      expect(listed.response.statusCode).toBe(200);
      expect(listed.body.data.dnss).toEqual(kept);
      const one = await fresh.call<One>('GET', `service/${serviceId}/dns/${before[0]?.id}/`, {}, { cookie: c });
      expect(one.body.data.dns).toEqual(before[0]);
      const exported = await fresh.app.inject({
        method: 'GET',
        url: `/p247/service/${serviceId}/dns/export/`,
        headers: { cookie: c, 'x-dd-request': '1' },
      });
      expect(exported.statusCode).toBe(200);
      expect(exported.body).toContain(`$ORIGIN ${zone}.`);
      const later = await buildAccount(t.database.db, { domainName: `later-${kind}.test` });
      const lc = await fresh.login(later.domainName, later.username, later.password);
      const laterId = later.resources[later.domainName] as number;
      const listedLater = await fresh.call<List>('GET', `service/${laterId}/dns/list/`, {}, { cookie: lc });
      expect(listedLater.response.statusCode).toBe(200);
      expect(listedLater.body.data.dnss).toHaveLength(9);
    } finally {
      await fresh.close();
    }

    await pdns.start();
    // The zones' jobs wait for their retry (with backoff); the round sends them again at once.
    await t.services.dns.republish();
    await eventually(async () => (await pdns.dig(`down.${zone}`, 'A')).length > 0);
    expect(await pdns.dig(`down.${zone}`, 'A')).toEqual(['192.0.2.77']);
    await eventually(async () => (await pdns.dig(`later-${kind}.test`, 'A')).length > 0);
    expect(await t.services.dns.sync(zone, { dryRun: true })).toEqual([{ zone, missing: [], extra: [], changed: [] }]);
    await t.call('POST', `service/${serviceId}/dns/${body.data.dns.id}/delete/`, {}, { cookie });
    expect(await pdns.dig(`down.${zone}`, 'A')).toEqual([]);
  });

  it('reports and repairs drift made behind the panel’s back', async () => {
    const driver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    await driver.replaceRRsets(zone, [
      { name: `${zone}.`, type: 'A', ttl: 3600, contents: ['192.0.2.200'] },
      { name: `rogue.${zone}.`, type: 'TXT', ttl: 3600, contents: ['"not from the panel"'] },
      { name: `mail.${zone}.`, type: 'A', ttl: 3600, contents: [] },
    ]);
    const drift = {
      zone,
      missing: [`mail.${zone}. A`],
      extra: [`rogue.${zone}. TXT`],
      changed: [`${zone}. A`],
    };
    // A dry run reports the same drift and leaves the server as it is.
    expect(await t.services.dns.sync(zone, { dryRun: true })).toEqual([drift]);
    expect(await pdns.dig(zone, 'A')).toEqual(['192.0.2.200']);
    const [report] = await t.services.dns.sync(zone, { dryRun: false });
    expect(report).toEqual(drift);
    expect(await pdns.dig(zone, 'A')).toEqual(['192.0.2.10']);
    expect(await pdns.dig(`rogue.${zone}`, 'TXT')).toEqual([]);
    expect(await pdns.dig(`mail.${zone}`, 'A')).toEqual(['192.0.2.25']);
    expect((await t.services.dns.sync(zone, { dryRun: false }))[0]).toEqual({
      zone,
      missing: [],
      extra: [],
      changed: [],
    });
  });

  it('in a 2,000-record zone, a change sends only its RRsets: one changed in PowerDNS meanwhile is not overwritten', async () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => ({
      service_id: serviceId,
      zona: `bulk${i}`,
      type: 'A',
      ttl: 0,
      priority: 0,
      value: `10.1.${i >> 8}.${i & 255}`,
      dynamic_value: '',
      eliminable: 1,
      created_at: 0,
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await t.database.db
        .insertInto('dns_records')
        .values(rows.slice(start, start + 500))
        .execute();
    }
    await t.services.dns.sync(zone, { dryRun: false });
    expect(await pdns.dig(`bulk1999.${zone}`, 'A')).toEqual(['10.1.7.207']);

    // Behind the panel's back: the apex A and one bulk record changed, a TXT planted.
    const driver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    await driver.replaceRRsets(zone, [
      { name: `${zone}.`, type: 'A', ttl: 3600, contents: ['192.0.2.201'] },
      { name: `bulk5.${zone}.`, type: 'A', ttl: 3600, contents: ['192.0.2.205'] },
      { name: `planted.${zone}.`, type: 'TXT', ttl: 3600, contents: ['"planted"'] },
    ]);
    const added = await create({ type: 'A', zona: 'added', value: '203.0.113.50' });
    await create({ type: 'A', zona: 'bulk6', value: '203.0.113.56' });
    const saved = await t.call<One>(
      'POST',
      `service/${serviceId}/dns/${added.id}/save/`,
      { value: '203.0.113.51', ttl: '0', priority: '0' },
      { cookie },
    );
    expect(saved.body.system.errors).toEqual([]);
    expect(await pdns.dig(`added.${zone}`, 'A')).toEqual(['203.0.113.51']);
    expect((await pdns.dig(`bulk6.${zone}`, 'A')).sort()).toEqual(['10.1.0.6', '203.0.113.56']);
    // What the changes did not touch is as PowerDNS had it: the panel did not rewrite the zone.
    expect(await pdns.dig(zone, 'A')).toEqual(['192.0.2.201']);
    expect(await pdns.dig(`bulk5.${zone}`, 'A')).toEqual(['192.0.2.205']);
    expect(await pdns.dig(`planted.${zone}`, 'TXT')).toEqual(['"planted"']);
    await t.call('POST', `service/${serviceId}/dns/${added.id}/delete/`, {}, { cookie });
    expect(await pdns.dig(`added.${zone}`, 'A')).toEqual([]);
    expect(await pdns.dig(zone, 'A')).toEqual(['192.0.2.201']);

    // Only a sync rewrites the zone, and it finds exactly the three changes made behind its back.
    const [report] = await t.services.dns.sync(zone, { dryRun: false });
    expect(report).toEqual({
      zone,
      missing: [],
      extra: [`planted.${zone}. TXT`],
      changed: [`${zone}. A`, `bulk5.${zone}. A`],
    });
    expect(await pdns.dig(zone, 'A')).toEqual(['192.0.2.10']);
    await t.database.db
      .deleteFrom('dns_records')
      .where('service_id', '=', serviceId)
      .where((eb) => eb.or([eb('zona', 'like', 'bulk%'), eb('zona', '=', 'added')]))
      .execute();
    await t.services.dns.sync(zone, { dryRun: false });
    expect(await pdns.dig(`bulk6.${zone}`, 'A')).toEqual([]);
  });

  it('serialises the changes of one zone: parallel restores leave the defaults once, parallel creates at one name are all served', async () => {
    const restores = await Promise.all(
      Array.from({ length: 10 }, () => t.call('POST', `service/${serviceId}/dns/restore/`, {}, { cookie })),
    );
    for (const { response } of restores) expect(response.statusCode).toBe(200);
    const restored = (await records()).map((r) => `${r.zona} ${r.type} ${r.priority} ${r.value}`);
    expect(restored).toHaveLength(9);
    expect(new Set(restored).size).toBe(9);
    expect(await pdns.dig(zone, 'MX')).toEqual([`10 mail.${zone}.`]);

    // forty TXT records at one name, ten at a time: each answered "done" must be served
    const values = Array.from({ length: 40 }, (_, index) => `parallel-${index}`);
    for (let start = 0; start < values.length; start += 10) {
      const batch = await Promise.all(
        values
          .slice(start, start + 10)
          .map((value) =>
            t.call<One>(
              'POST',
              `service/${serviceId}/dns/create/`,
              { type: 'TXT', zona: 'parallel', value, ttl: '0', priority: '20' },
              { cookie },
            ),
          ),
      );
      for (const { body } of batch) expect(body.system.errors).toEqual([]);
    }
    expect((await pdns.dig(`parallel.${zone}`, 'TXT')).sort()).toEqual(values.map((value) => `"${value}"`).sort());
    expect((await t.services.dns.sync(zone, { dryRun: false }))[0]).toEqual({
      zone,
      missing: [],
      extra: [],
      changed: [],
    });
  });

  it('turns DNSSEC on and returns the zone’s DS records; answers are then signed', async () => {
    const driver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    const ds = await driver.dsRecords(zone);
    expect(ds.map((d) => d.digestType).sort()).toEqual([1, 2, 4]);
    expect(ds.every((d) => d.algorithm === 13 && d.keytag > 0)).toBe(true);
    expect(ds.find((d) => d.digestType === 2)?.digest).toMatch(/^[0-9a-f]{64}$/);
    const signed = await pdns.dig(zone, 'A', ['+dnssec', '+noall', '+answer']);
    expect(signed.some((line) => /\sRRSIG\s+A\s+13\s/.test(line))).toBe(true);
    expect(await driver.dsRecords(zone)).toEqual(ds);
  });
});

describe('npm run panel -- dns sync, against a real PowerDNS', () => {
  let pdns: PowerDns;
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    pdns = await startPowerDns();
    database = await createTestDatabase('postgres');
    t = await buildTestApp('postgres', {
      database,
      config: { 'dns.driver': 'powerdns', 'dns.powerdnsApiUrl': pdns.apiUrl, 'dns.powerdnsApiKey': pdns.apiKey },
    });
    const account = await buildAccount(database.db, { domainName: 'cli-sync.test' });
    const cookie = await t.login(account.domainName, account.username, account.password);
    await t.call('GET', `service/${account.resources['cli-sync.test']}/dns/list/`, {}, { cookie });
  });
  afterAll(async () => {
    await t?.close();
    await database?.destroy();
    await pdns?.stop();
  });

  const cli = (args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/panel.ts', ...args], {
      cwd: path.resolve(import.meta.dirname, '../../../..'),
      env: {
        ...process.env,
        PANEL_DATABASE_URL: database.url,
        PANEL_DNS_DRIVER: 'powerdns',
        PANEL_POWERDNS_API_URL: pdns.apiUrl,
        PANEL_POWERDNS_API_KEY: pdns.apiKey,
        PANEL_LOG_LEVEL: 'silent',
      },
    });

  it('reports no drift after a PowerDNS restart, then finds and repairs a change made behind its back', async () => {
    await pdns.stop();
    await pdns.start();
    const clean = JSON.parse((await cli(['dns', 'sync', '--json'])).stdout);
    expect(clean).toEqual({
      driver: 'powerdns',
      dryRun: false,
      zones: [{ zone: 'cli-sync.test', missing: [], extra: [], changed: [] }],
    });

    const driver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    await driver.replaceRRsets('cli-sync.test', [
      { name: 'www.cli-sync.test.', type: 'CNAME', ttl: 3600, contents: [] },
    ]);
    const reported = await cli(['dns', 'sync', 'cli-sync.test', '--dry-run']);
    expect(reported.stdout).toMatch(/missing on the server\s+www\.cli-sync\.test\. CNAME\s+not repaired \(dry run\)/);
    expect(await pdns.dig('www.cli-sync.test', 'CNAME')).toEqual([]);
    const drifted = await cli(['dns', 'sync', 'cli-sync.test']);
    expect(drifted.stdout).toMatch(/cli-sync\.test\s+missing on the server\s+www\.cli-sync\.test\. CNAME\s+rewritten/);
    expect(await pdns.dig('www.cli-sync.test', 'CNAME')).toEqual(['cli-sync.test.']);
  });
});
