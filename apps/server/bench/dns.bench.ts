/**
 * npm run bench:dns — two figures, each against a baseline measured in the same run:
 *  1. DNS list p95 for a 10,000-record zone over a 100-record zone (first page, as the web asks
 *     for it). Goal ≤ 2.0.
 *  2. Record create through the panel → first answer from PowerDNS, p95 over 200 changes, against
 *     a direct PowerDNS API PATCH → first answer. Goal ≤ 1.5 × baseline + 100 ms.
 * Answers are polled with a real DNS client (node:dns Resolver, c-ares) against pdns_server on
 * loopback, started from the deploy/ template. A benchmark never fails: it prints and exits 0.
 */
import { Resolver } from 'node:dns/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPowerDns } from '../../../scripts/daemons/powerdns.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { AdminService, allKeys } from '../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../src/modules/realtime/event-bus.ts';

const CHANGES = Number(process.env.BENCH_DNS_CHANGES ?? 200);
const LIST_SAMPLES = 200;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main() {
  const pdns = await startPowerDns();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-bench-dns-'));
  const config = loadConfig(
    {},
    {
      dataDir,
      logLevel: 'silent',
      'captcha.provider': 'none',
      'dns.driver': 'powerdns',
      'dns.powerdnsApiUrl': pdns.apiUrl,
      'dns.powerdnsApiKey': pdns.apiKey,
    },
  );
  const { db } = openDatabase({ sqliteFile: path.join(dataDir, 'panel.sqlite') });
  await migrateToLatest(db);
  const events = new LocalEventBus();
  const { app, services } = await buildApp({ config, db, events, secretKey: Buffer.alloc(32, 1) });
  const now = () => Math.floor(Date.now() / 1000);
  const admin = new AdminService(db, events, now);
  await admin.ensureBrand({ slug: 'bench', company: 'Bench', isDefault: true });
  await admin.ensureAccount('bench.test', 'bench');
  await admin.ensureUser('bench.test', 'admin', 'bench password 1');
  const ids: Record<string, number> = {};
  for (const reference of ['big.test', 'small.test', 'live.test']) {
    ids[reference] = await admin.ensureResource('bench.test', {
      reference,
      hasService: true,
      serviceExpireTs: now() + 86400,
    });
    await admin.grant('bench.test', 'admin', reference, allKeys('write'));
    await services.dns.ensureZoneOf(ids[reference] as number, reference, reference);
  }
  // Bulk rows straight into the table: the list figure is about reading, not about creating.
  for (const [reference, count] of [
    ['big.test', 10_000],
    ['small.test', 100],
  ] as const) {
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < count; start += 500) {
        const rows = Array.from({ length: Math.min(500, count - start) }, (_, i) => ({
          service_id: ids[reference] as number,
          zona: `host${String(start + i).padStart(5, '0')}`,
          type: 'A',
          ttl: 0,
          priority: 0,
          value: `10.${(start + i) >> 16}.${((start + i) >> 8) & 255}.${(start + i) & 255}`,
          dynamic_value: '',
          eliminable: 1,
          created_at: now(),
        }));
        await trx.insertInto('dns_records').values(rows).execute();
      }
    });
  }

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const login = await fetch(`${address}/p247/user/login/`, {
    method: 'POST',
    headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ domainName: 'bench.test', username: 'admin', password: 'bench password 1' }),
  });
  const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
  const headers = { 'x-dd-request': '1', cookie };

  async function timeList(reference: string): Promise<number[]> {
    const url = `${address}/p247/service/${ids[reference]}/dns/list/?page=1&pageSize=10`;
    const times: number[] = [];
    for (let i = 0; i < LIST_SAMPLES + 20; i++) {
      const start = performance.now();
      const body = (await fetch(url, { headers }).then((r) => r.json())) as { data: { total: number } };
      if (i >= 20) times.push(performance.now() - start);
      if (i === 0 && body.data.total < 100) throw new Error(`unexpected list answer for ${reference}`);
    }
    return times;
  }
  const small = percentile(await timeList('small.test'), 95);
  const big = percentile(await timeList('big.test'), 95);

  const resolver = new Resolver({ timeout: 500, tries: 1 });
  resolver.setServers([`127.0.0.1:${pdns.dnsPort}`]);
  async function firstAnswer(name: string, address: string, since: number): Promise<number> {
    for (;;) {
      const answers = await resolver.resolve4(name).catch(() => [] as string[]);
      if (answers.includes(address)) return performance.now() - since;
      if (performance.now() - since > 10_000) throw new Error(`${name} never answered ${address}`);
    }
  }

  const direct: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const name = `direct${i}.live.test`;
    const value = `192.0.2.${i % 250}`;
    const start = performance.now();
    const response = await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones/live.test.`, {
      method: 'PATCH',
      headers: { 'x-api-key': pdns.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        rrsets: [
          {
            name: `${name}.`,
            type: 'A',
            ttl: 3600,
            changetype: 'REPLACE',
            records: [{ content: value, disabled: false }],
          },
        ],
      }),
    });
    if (response.status !== 204) throw new Error(`direct PATCH: HTTP ${response.status}`);
    direct.push(await firstAnswer(name, value, start));
  }

  const panel: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const value = `198.51.100.${i % 250}`;
    const start = performance.now();
    const body = (await fetch(`${address}/p247/service/${ids['live.test']}/dns/create/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ type: 'A', zona: `panel${i}`, value, ttl: '0' }),
    }).then((r) => r.json())) as { system: { valid: boolean; errors: string[] } };
    if (!body.system.valid) throw new Error(`panel create: ${body.system.errors.join(', ')}`);
    panel.push(await firstAnswer(`panel${i}.live.test`, value, start));
  }

  const directP95 = percentile(direct, 95);
  const panelP95 = percentile(panel, 95);
  const listRatio = big / small;
  const allowed = 1.5 * directP95 + 100;
  console.log('\nDNS benchmark (pdns_server on loopback, panel on SQLite)');
  console.log(`  list, first page, 100-record zone      p95 ${ms(small)}   (baseline)`);
  console.log(`  list, first page, 10,000-record zone   p95 ${ms(big)}`);
  console.log(`  ratio 10,000 / 100: ${listRatio.toFixed(2)}   goal ≤ 2.0   ${listRatio <= 2 ? 'met' : 'NOT met'}`);
  console.log(`  change → first answer, direct PATCH    p95 ${ms(directP95)}   (baseline, ${CHANGES} changes)`);
  console.log(`  change → first answer, through panel   p95 ${ms(panelP95)}   (${CHANGES} changes)`);
  console.log(
    `  ratio panel / direct: ${(panelP95 / directP95).toFixed(2)}   goal ≤ 1.5 × baseline + 100 ms = ${ms(allowed)}   ${panelP95 <= allowed ? 'met' : 'NOT met'}`,
  );

  await app.close();
  await db.destroy();
  await pdns.stop();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 0;
});
