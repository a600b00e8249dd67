import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DnsOneData } from '@panel247/contract/dns';
import type { DnsChangeMadeData, DnsHistoryData } from '@panel247/contract/dns-history';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { PowerDnsDriver } from '../../src/drivers/dns/powerdns.driver.ts';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const run = promisify(execFile);

describe.each(DATABASE_KINDS)('DNS zone history served by a real PowerDNS (panel on %s)', (kind) => {
  let pdns: PowerDns;
  let t: TestApp;
  let cookie: string;
  let serviceId: number;
  const zone = `history-${kind}.test`;

  beforeAll(async () => {
    pdns = await startPowerDns();
    t = await buildTestApp(kind, {
      config: {
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': pdns.apiUrl,
        'dns.powerdnsApiKey': pdns.apiKey,
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        'dns.republishSeconds': 0,
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

  const call = async <T>(url: string, params: Record<string, string> = {}) => {
    const { response, body } = await t.call<T>('POST', `service/${serviceId}/dns/${url}`, params, { cookie });
    expect(body.system.errors).toEqual([]);
    expect(response.statusCode).toBe(200);
    return body;
  };
  const latest = async () =>
    (await t.call<DnsHistoryData>('GET', `service/${serviceId}/dns/history/`, {}, { cookie })).body.data.changes[0]
      ?.id as number;

  /** What PowerDNS answers for the names the changes touch, TTLs included (`dig +noall +answer`). */
  const answers = async () => {
    const asked: [string, string][] = [
      [zone, 'A'],
      [zone, 'AAAA'],
      [zone, 'MX'],
      [zone, 'TXT'],
      [zone, 'NS'],
      [`www.${zone}`, 'CNAME'],
      [`mail.${zone}`, 'A'],
      [`web.${zone}`, 'A'],
      [`shop.${zone}`, 'A'],
      [`_dmarc.${zone}`, 'TXT'],
    ];
    const seen: Record<string, string[]> = {};
    for (const [name, type] of asked) {
      const lines = await pdns.dig(name, type, ['+noall', '+answer']);
      seen[`${name} ${type}`] = lines.map((line) => line.replace(/\s+/g, ' ')).sort();
    }
    return seen;
  };

  it('a revert and a restore-as-at bring back exactly the earlier dig answers', async () => {
    // The zone comes with the first call.
    await t.call('GET', `service/${serviceId}/dns/list/`, {}, { cookie });
    const original = await answers();
    expect(original[`${zone} NS`]).toHaveLength(2);
    await call<DnsOneData>('create/', { type: 'A', zona: 'web', value: '203.0.113.1', ttl: '600', priority: '0' });
    await call<DnsOneData>('create/', { type: 'A', zona: 'web', value: '203.0.113.2', ttl: '600', priority: '0' });
    const point = await latest();
    const atPoint = await answers();
    expect(atPoint[`web.${zone} A`]).toEqual([
      `web.${zone}. 600 IN A 203.0.113.1`,
      `web.${zone}. 600 IN A 203.0.113.2`,
    ]);

    const text = [
      `$ORIGIN ${zone}.`,
      '@ 1800 IN A 198.51.100.10',
      '@ IN MX 10 mx.example.org.',
      'shop 600 IN A 198.51.100.5',
      'www 600 IN CNAME shop',
    ].join('\n');
    await call('import/', { text, mode: 'replace' });
    const afterImport = await answers();
    expect(afterImport[`shop.${zone} A`]).toEqual([`shop.${zone}. 600 IN A 198.51.100.5`]);
    expect(afterImport[`mail.${zone} A`]).toEqual([]);
    const imported = await latest();

    await call('delete/');
    expect((await answers())[`shop.${zone} A`]).toEqual([]);
    const emptied = await latest();

    // Revert delete-all: the zone answers as right after the import.
    const reverted = await call<DnsChangeMadeData>(`history/${emptied}/revert/`);
    expect(reverted.system.info).toEqual(['Cambio revertido']);
    expect(await answers()).toEqual(afterImport);

    // Revert the import: as before it, which is the point.
    await call(`history/${imported}/revert/`);
    expect(await answers()).toEqual(atPoint);

    // Back to the zone's start, then forward again to the point, whole-zone.
    await call(`history/${point}/revert/`);
    expect((await answers())[`web.${zone} A`]).toEqual([`web.${zone}. 600 IN A 203.0.113.1`]);
    await call(`history/${await latest()}/revert/`);
    expect(await answers()).toEqual(atPoint);
    const first = (
      await t.call<DnsHistoryData>(
        'GET',
        `service/${serviceId}/dns/history/`,
        { page: '1', pageSize: '100' },
        { cookie },
      )
    ).body.data.changes.at(-1);
    expect(first?.kind).toBe('zone');
    await call(`history/${first?.id}/restore/`);
    expect(await answers()).toEqual(original);
    await call(`history/${point}/restore/`);
    expect(await answers()).toEqual(atPoint);

    // The database and PowerDNS agree: no drift.
    expect(await t.services.dns.sync(zone, { dryRun: true })).toEqual([{ zone, missing: [], extra: [], changed: [] }]);
  });

  it('exports any point in history as a zone named-checkzone accepts', async () => {
    const change = await latest();
    const response = await t.app.inject({
      method: 'GET',
      url: `/p247/service/${serviceId}/dns/history/${change}/export/`,
      headers: { cookie, 'x-dd-request': '1' },
    });
    expect(response.statusCode).toBe(200);
    const file = path.join(tmpdir(), `${zone}-${change}-${Date.now()}.zone`);
    writeFileSync(file, response.body);
    const { stdout } = await run('named-checkzone', ['-i', 'local', zone, file]);
    expect(stdout).toMatch(/OK/);
  });

  it('keeps a sync that repaired drift made behind the panel’s back, and refuses to revert it', async () => {
    const driver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    await driver.replaceRRsets(zone, [{ name: `planted.${zone}.`, type: 'A', ttl: 60, contents: ['192.0.2.66'] }]);
    const [report] = await t.services.dns.sync(zone, { dryRun: false });
    expect(report?.extra).toEqual([`planted.${zone}. A`]);
    expect(await pdns.dig(`planted.${zone}`, 'A')).toEqual([]);
    const sync = await latest();
    const { body } = await t.call('GET', `service/${serviceId}/dns/history/${sync}/`, {}, { cookie });
    expect(body.data).toMatchObject({
      change: { kind: 'sync', who: '' },
      rrsets: [{ zona: 'planted', type: 'A', before: [{ ttl: 60, value: '192.0.2.66' }], after: [] }],
    });
    const refused = await t.call('POST', `service/${serviceId}/dns/history/${sync}/revert/`, {}, { cookie });
    expect(refused.response.statusCode).toBe(409);
  });
});
