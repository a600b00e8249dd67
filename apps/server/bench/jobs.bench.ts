/**
 * npm run bench:jobs — the work log measured, on the embedded engine (SQLite) and on pg-boss
 * (PostgreSQL, PANEL_BENCH_PG_URL), each in one run:
 *
 * 1. Change-to-applied latency: a web change (the web driver's apply of a service whose
 *    redirection changed) sent through the log and awaited until its handler has applied it,
 *    against the same apply called directly, alternating in blocks of 10 (BENCH_JOBS_CHANGES,
 *    200 each). Aim: p95 through the log ≤ 1.3 × the direct p95 + 20 ms.
 * 2. Drain: BENCH_JOBS_QUEUED (10,000) changes of 100 services queued while no worker runs, then
 *    one worker (concurrency 4) takes them: changes per second until the last is applied.
 * 3. Catch-up: 1,000 changes queued while the worker was away, then the time until all are applied.
 * 4. A web change as the panel makes it (HostingChanges.change: a redirection's row and its entry
 *    of service_changes in one transaction, then the service's `web.apply-service` job, the call
 *    waiting for its word), against the same change applied inline in the calling process (as
 *    the CLI does), alternating in blocks of 10 (BENCH_JOBS_CHANGES each).
 *
 * The driver is the embedded web driver (it renders and writes the service's files, no daemon),
 * so the figures are the log's cost on top of a real apply. A benchmark never fails: it prints
 * and exits 0; only a broken setup exits 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { loadConfig } from '../src/config.ts';
import { type DatabaseKind, migrateToLatest, nowSeconds, openDatabase } from '../src/db/database.ts';
import { createWebDriver } from '../src/drivers/web/create-web-driver.ts';
import type { WebService } from '../src/drivers/web/web.driver.ts';
import { workServiceApplying } from '../src/jobs/apply-service.jobs.ts';
import { createJobEngine } from '../src/jobs/create-job-engine.ts';
import type { JobEngine } from '../src/jobs/job-engine.ts';
import { defineJob } from '../src/jobs/job-kind.ts';
import { AdminService } from '../src/modules/admin/admin.service.ts';
import { BrandService } from '../src/modules/brand/brand.service.ts';
import { createHostingService } from '../src/modules/hosting/create-hosting-service.ts';
import { hostingRepository } from '../src/modules/hosting/hosting.repository.ts';
import { APPLY_WEB } from '../src/modules/hosting/web-apply.jobs.ts';
import { LocalEventBus } from '../src/modules/realtime/event-bus.ts';
import { createPgDatabase } from './bench-support.ts';

const CHANGES = Number(process.env.BENCH_JOBS_CHANGES ?? 200);
const QUEUED = Number(process.env.BENCH_JOBS_QUEUED ?? 10_000);
const AWAY = 1000;
const SERVICES = 100;

const change = defineJob({
  name: 'bench.web-change',
  payload: z.object({ serviceId: z.number().int(), n: z.number().int() }),
  policy: 'ordered',
  key: (p) => `service-${p.serviceId}`,
  retry: { limit: 3, delaySeconds: 1, backoff: true },
  expireSeconds: 60,
});

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function benchEngine(kind: DatabaseKind): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-bench-jobs-'));
  const pgDatabase = kind === 'postgres' ? await createPgDatabase() : undefined;
  const { db } = openDatabase(pgDatabase ? { url: pgDatabase.url } : { sqliteFile: path.join(dir, 'panel.sqlite') });
  await migrateToLatest(db);
  const driver = createWebDriver(loadConfig({}, { dataDir: dir, logLevel: 'silent' }));
  const model = (serviceId: number, n: number): WebService => ({
    serviceId,
    domain: `bench-${serviceId}.test`,
    home: path.join(dir, 'homes', `bench-${serviceId}.test`),
    phpVersion: '8.2',
    parking: false,
    sites: [{ subdomain: '', folder: '' }],
    redirections: [{ subdomain: '', path: `/old-${n}`, url: `https://example.com/${n}`, type: 301 }],
  });

  let engine: JobEngine = createJobEngine({ db, kind, url: pgDatabase?.url });
  const applied = new Map<number, () => void>();
  let count = 0;
  const work = (jobs: JobEngine, concurrency = 1) =>
    jobs.work(
      change,
      async ({ serviceId, n }) => {
        await driver.apply(model(serviceId, n));
        count += 1;
        applied.get(n)?.();
      },
      { concurrency },
    );
  try {
    await engine.start({ workers: true });
    await work(engine);

    // 1. latency, alternating blocks of direct applies and changes through the log
    const direct: number[] = [];
    const logged: number[] = [];
    for (let n = 0; n < CHANGES * 2; n++) {
      const throughLog = Math.floor(n / 10) % 2 === 1;
      const start = performance.now();
      if (throughLog) {
        const done = new Promise<void>((resolve) => applied.set(n, resolve));
        await engine.send(change, { serviceId: 1, n });
        await done;
        applied.delete(n);
        logged.push(performance.now() - start);
      } else {
        await driver.apply(model(1, n));
        direct.push(performance.now() - start);
      }
    }
    const aim = 1.3 * percentile(direct, 95) + 20;
    console.log(`\n${kind === 'postgres' ? 'pg-boss on PostgreSQL' : 'embedded engine on SQLite'}`);
    console.log(
      `  latency, direct apply:    p50 ${ms(percentile(direct, 50))}  p95 ${ms(percentile(direct, 95))}  (${direct.length})`,
    );
    console.log(
      `  latency, through the log: p50 ${ms(percentile(logged, 50))}  p95 ${ms(percentile(logged, 95))}  (${logged.length})`,
    );
    console.log(
      `  p95 ratio log/direct ${(percentile(logged, 95) / percentile(direct, 95)).toFixed(2)}; aim p95 ≤ ${ms(aim)}: ${percentile(logged, 95) <= aim ? 'met' : 'NOT met'}`,
    );

    // 2 and 3: queued while no worker runs, then one worker takes them
    for (const [label, total] of [
      ['drain', QUEUED],
      ['catch-up', AWAY],
    ] as const) {
      await engine.stop();
      engine = createJobEngine({ db, kind, url: pgDatabase?.url });
      await engine.start({ workers: true });
      const queueStart = performance.now();
      for (let i = 0; i < total; i++) await engine.send(change, { serviceId: 1 + (i % SERVICES), n: 1_000_000 + i });
      const queued = performance.now() - queueStart;
      count = 0;
      const start = performance.now();
      await work(engine, 4);
      while (count < total) await new Promise((resolve) => setTimeout(resolve, 20));
      const took = performance.now() - start;
      console.log(
        `  ${label}: ${total} changes of ${SERVICES} services queued in ${(queued / 1000).toFixed(1)} s, applied in ${(took / 1000).toFixed(1)} s: ${Math.round(total / (took / 1000))} changes/s`,
      );
    }
  } finally {
    await engine.stop();
    await db.destroy();
    await pgDatabase?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 4: HostingChanges.change through the work log against the same change run inline. */
async function benchServiceChange(kind: DatabaseKind): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-bench-change-'));
  const pgDatabase = kind === 'postgres' ? await createPgDatabase() : undefined;
  const { db } = openDatabase(pgDatabase ? { url: pgDatabase.url } : { sqliteFile: path.join(dir, 'panel.sqlite') });
  await migrateToLatest(db);
  const config = loadConfig({}, { dataDir: dir, logLevel: 'silent', 'hosting.root': path.join(dir, 'www') });
  const admin = new AdminService(db, new LocalEventBus(), nowSeconds);
  await admin.ensureBrand({ slug: 'bench', company: 'Bench', isDefault: true });
  await admin.ensureAccount('bench.test', 'bench');
  const id = await admin.ensureResource('bench.test', { reference: 'change.bench.test', hasService: true });
  const service = { id, domain: 'change.bench.test' };
  const engine = createJobEngine({ db, kind, url: pgDatabase?.url });
  const brands = new BrandService(db);
  const key = Buffer.alloc(32, 7);
  const viaLog = createHostingService(db, config, brands, key, nowSeconds, undefined, {
    webDelivery: { jobs: engine, waitMs: 30_000 },
  });
  const inline = createHostingService(db, config, brands, key, nowSeconds);
  const redirection = (n: number) => (trx: typeof db) =>
    hostingRepository.insertRedirection(trx, {
      service_id: id,
      subdomain: '',
      path: `/moved-${n}`,
      url: `https://example.com/${n}`,
      type: '301',
      iframe_title: '',
      iframe_description: '',
      iframe_keywords: '',
      created_at: nowSeconds(),
    });
  try {
    await engine.start({ workers: true });
    await workServiceApplying(engine, APPLY_WEB, viaLog.webApplier);
    await inline.changes.provision(service);
    const direct: number[] = [];
    const logged: number[] = [];
    for (let n = 0; n < CHANGES * 2; n++) {
      const throughLog = Math.floor(n / 10) % 2 === 1;
      const start = performance.now();
      await (throughLog ? viaLog : inline).changes.change(service, redirection(n), { prepare: [], hosts: [''] });
      (throughLog ? logged : direct).push(performance.now() - start);
    }
    console.log(`  a web change (HostingChanges.change, a redirection), ${kind}:`);
    console.log(
      `    inline:           p50 ${ms(percentile(direct, 50))}  p95 ${ms(percentile(direct, 95))}  (${direct.length})`,
    );
    console.log(
      `    through the log:  p50 ${ms(percentile(logged, 50))}  p95 ${ms(percentile(logged, 95))}  (${logged.length})`,
    );
    console.log(`    p95 ratio log/inline ${(percentile(logged, 95) / percentile(direct, 95)).toFixed(2)}`);
  } finally {
    await engine.stop();
    await viaLog.close();
    await inline.close();
    await db.destroy();
    await pgDatabase?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  await benchEngine('sqlite');
  await benchServiceChange('sqlite');
  try {
    await benchEngine('postgres');
    await benchServiceChange('postgres');
  } catch (error) {
    console.log(`\npg-boss on PostgreSQL: not measured (${(error as Error).message})`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
