/**
 * npm run bench:registry — the EPP client measured against the test registry (TLS with client
 * certificates, real state; its schema check is off here, one xmllint a frame would be the
 * figure), which waits BENCH_REGISTRY_LATENCY_MS (5) over each command as a registry across a
 * network does:
 *
 * 1. Commands per second: BENCH_REGISTRY_COMMANDS (2,000) domain:info sent 16 at a time through
 *    a pool of BENCH_REGISTRY_SESSIONS (8) sessions, against the same through one connection
 *    (the pool with one session), alternating in blocks, no rate limit. Aim: the pool ≥ 4 × one
 *    connection.
 * 2. `registry sync` of BENCH_REGISTRY_DOMAINS (10,000) domains at a registry whose rate limit
 *    is BENCH_REGISTRY_RATE (1,000 commands a second): the first sync imports every domain
 *    (the panel has no copy yet), the second finds them all in step. Each is set against the
 *    floor the rate limit allows (commands sent / rate). Aim: within 1.2 × the floor.
 *
 * SQLite in a temporary folder. A benchmark never fails: it prints and exits 0; only a broken
 * setup exits 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SecretBox } from '../src/crypto/secret-box.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { eppCommands } from '../src/drivers/registry/epp/epp-commands.ts';
import { EppPool } from '../src/drivers/registry/epp/epp-pool.ts';
import { EppRegistryDriver } from '../src/drivers/registry/epp/epp-registry.driver.ts';
import { AdminService } from '../src/modules/admin/admin.service.ts';
import { DomainService } from '../src/modules/domain/domain.service.ts';
import { RegistrySyncService } from '../src/modules/domain/registry-sync.service.ts';
import { PermissionService } from '../src/modules/permission/permission.service.ts';
import { LocalEventBus } from '../src/modules/realtime/event-bus.ts';
import { startEppRegistry } from '../test/support/epp-registry/epp-registry-server.ts';
import { registryCertificates } from '../test/support/epp-registry/registry-certificates.ts';

const COMMANDS = Number(process.env.BENCH_REGISTRY_COMMANDS ?? 2000);
const SESSIONS = Number(process.env.BENCH_REGISTRY_SESSIONS ?? 8);
const DOMAINS = Number(process.env.BENCH_REGISTRY_DOMAINS ?? 10_000);
const RATE = Number(process.env.BENCH_REGISTRY_RATE ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_REGISTRY_LATENCY_MS ?? 5);
const IN_FLIGHT = 16;
const BLOCKS = 4;
const REGISTRAR = { id: 'bench-registrar', password: 'bench-pw-1' };

const now = () => Math.floor(Date.now() / 1000);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-bench-registry-'));
  const certs = await registryCertificates();
  const registry = await startEppRegistry({
    cert: certs.server.cert,
    key: certs.server.key,
    ca: certs.ca,
    registrars: [REGISTRAR],
    schemaCheck: false,
    latencyMs: LATENCY_MS,
  });
  const poolWith = (sessions: number, ratePerSecond: number) =>
    new EppPool({
      name: 'bench',
      host: '127.0.0.1',
      port: registry.port,
      cert: certs.client.cert,
      key: certs.client.key,
      ca: certs.ca,
      clientId: REGISTRAR.id,
      password: REGISTRAR.password,
      sessions,
      ratePerSecond,
      keepAliveMs: 600_000,
    });
  const { db } = openDatabase({ sqliteFile: path.join(dir, 'panel.sqlite') });
  try {
    await migrateToLatest(db);
    console.log(
      `EPP registry benchmark: ${LATENCY_MS} ms a command at the registry, ${COMMANDS} commands, ${SESSIONS} sessions; sync of ${DOMAINS} domains at ${RATE} commands/s`,
    );

    // 1. the pool against one connection, alternating blocks
    const names = Array.from({ length: 50 }, (_, i) => `info${i}.es`);
    for (const name of names) registry.state.addDomain(name, REGISTRAR.id);
    const throughput = async (pool: EppPool, count: number) => {
      let next = 0;
      const started = performance.now();
      const worker = async () => {
        while (next < count) {
          const { verb } = eppCommands.domainInfo(names[next++ % names.length] as string);
          await pool.command('domain:info', verb);
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      return performance.now() - started;
    };
    const pooled = poolWith(SESSIONS, 100_000);
    const single = poolWith(1, 100_000);
    await throughput(pooled, SESSIONS * 2); // log in every session before timing
    await throughput(single, 2);
    const block = Math.max(1, Math.floor(COMMANDS / BLOCKS));
    const times = { pool: 0, single: 0 };
    for (let i = 0; i < BLOCKS; i++) {
      times.pool += await throughput(pooled, block);
      times.single += await throughput(single, block);
    }
    await Promise.all([pooled.close(), single.close()]);
    const perSecond = (ms: number) => (block * BLOCKS * 1000) / ms;
    const ratio = perSecond(times.pool) / perSecond(times.single);
    console.log(
      `\n1. commands/s: pool of ${SESSIONS} ${perSecond(times.pool).toFixed(0)}, one connection ${perSecond(times.single).toFixed(0)}: ${ratio.toFixed(2)} × (aim ≥ 4 ×)`,
    );

    // 2. registry sync of DOMAINS domains within the rate limit
    const admin = new AdminService(db, new LocalEventBus(), now);
    await admin.ensureBrand({ slug: 'bench', company: 'Bench', isDefault: true, contactEmail: 'bench@bench.test' });
    await admin.ensureAccount('bench.test', 'bench');
    await admin.ensureUser('bench.test', 'admin', 'bench password 1');
    const references = Array.from({ length: DOMAINS }, (_, i) => `d${String(i).padStart(6, '0')}.es`);
    await admin.ensureResourcesBulk(
      'bench.test',
      'admin',
      references.map((reference) => ({ reference, hasDomain: true, domainExpireTs: 1_900_000_000 })),
      {},
    );
    for (const reference of references)
      registry.state.addDomain(reference, REGISTRAR.id, { nameservers: ['ns1.bench.example', 'ns2.bench.example'] });
    const secrets = new SecretBox(Buffer.alloc(32, 7), 'domain-auth');
    const settings = { defaultNameservers: ['ns1.bench.example', 'ns2.bench.example'] };
    const pool = poolWith(SESSIONS, RATE);
    const driver = new EppRegistryDriver({
      settings: async () => [],
      handles: async () => [{ name: 'bench', tlds: ['es'], pool, hostObjects: true }],
      refreshMs: 3_600_000,
      cacheSeconds: 0,
      now,
    });
    const domains = new DomainService(db, driver, new PermissionService(db), secrets, settings, now);
    const sync = new RegistrySyncService(db, domains, driver, secrets, settings);
    const timed = async (dryRun: boolean) => {
      const sent = registry.commands.length;
      const started = performance.now();
      const outcomes = await sync.syncAll({ dryRun, concurrency: SESSIONS * 2 });
      const ms = performance.now() - started;
      const commands = registry.commands.length - sent;
      const floor = (commands / RATE) * 1000;
      const count = (outcome: string) => outcomes.filter((o) => o.outcome === outcome).length;
      return { ms, commands, floor, drifted: count('drifted'), same: count('same'), failed: count('failed') };
    };
    const first = await timed(false);
    const second = await timed(true);
    await driver.close();
    console.log(`\n2. registry sync of ${DOMAINS} domains at ${RATE} commands/s (floor: commands ÷ rate):`);
    for (const [label, run] of [
      ['first (imports every domain)', first],
      ['second (all in step, dry run)', second],
    ] as const) {
      console.log(
        `   ${label}: ${seconds(run.ms)} for ${run.commands} commands, floor ${seconds(run.floor)}: ${(run.ms / run.floor).toFixed(2)} × (aim ≤ 1.2 ×); ${run.drifted} drifted, ${run.same} in step, ${run.failed} failed`,
      );
    }
  } finally {
    await db.destroy();
    await registry.close();
    await certs.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
