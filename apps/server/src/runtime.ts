import path from 'node:path';
import type { AppConfig } from './config.ts';
import {
  type DatabaseKind,
  type Db,
  migrateToLatest,
  nowSeconds,
  openDatabase,
  pendingMigrations,
} from './db/database.ts';
import { createDnsDriver } from './drivers/dns/create-dns-driver.ts';
import type { DnsDriver } from './drivers/dns/dns.driver.ts';
import { createJobEngine } from './jobs/create-job-engine.ts';
import type { JobEngine } from './jobs/job-engine.ts';
import { type JobSender, startingSender } from './jobs/job-sender.ts';
import { AdminService } from './modules/admin/admin.service.ts';
import { BrandService } from './modules/brand/brand.service.ts';
import { createDatabasesService } from './modules/databases/create-databases-service.ts';
import { createDnsService } from './modules/dns/dns.service.ts';
import { createDomainServices } from './modules/domain/create-domain-services.ts';
import { createFtpService } from './modules/ftp/create-ftp-service.ts';
import { createHostingService } from './modules/hosting/create-hosting-service.ts';
import { createServiceUsers } from './modules/hosting/service-users.ts';
import { configuredPlan } from './modules/plans/configured-plan.ts';
import { PlansService } from './modules/plans/plans.service.ts';
import { type EventBus, LocalEventBus } from './modules/realtime/event-bus.ts';
import { PostgresEventBus } from './modules/realtime/postgres-event-bus.ts';
import { loadSecretKey } from './secret-key.ts';
import { ensureDefaultBrand, seedDemo } from './seed/demo-seed.ts';

export interface Runtime {
  db: Db;
  kind: DatabaseKind;
  events: EventBus;
  dnsDriver: DnsDriver;
  /** The work log, not started: the server starts its workers, the CLI only reads and sends. */
  jobs: JobEngine;
  /** Sends jobs to `jobs`, starting it (without workers) on the first send: the CLI's changes. */
  sender: JobSender;
  close(): Promise<void>;
}

/**
 * The panel migrates the database it owns. On one of the provider's servers (PANEL_NODE) the CLI
 * logs in as that server's role, which may not change the schema: it only checks that the panel
 * has brought the database to this version.
 */
async function bringSchemaUp(db: Db, config: AppConfig): Promise<void> {
  if (config.agent.node === '') {
    const applied = await migrateToLatest(db);
    // The services keep the limits they had from the configuration when plans become data.
    if (applied.includes('0038-plans'))
      await new PlansService(db, nowSeconds, { phpVersions: Object.keys(config.web.phpSockets) }).adoptConfiguration(
        configuredPlan(config),
      );
    return;
  }
  const pending = await pendingMigrations(db);
  if (pending.length > 0)
    throw new Error(`the panel's database lacks ${pending.join(', ')}: upgrade and start the panel first`);
}

/**
 * Opens what the server and the CLI both need: the database (migrated), the event bus for it, and
 * the seed. SQLite is seeded with the demo by default; PostgreSQL only when asked.
 */
export async function openRuntime(config: AppConfig): Promise<Runtime> {
  const { db, kind, url } = openDatabase({
    url: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'panel.sqlite'),
    poolSize: config.databasePoolSize,
    preparedStatements: config.databasePreparedStatements,
  });
  await bringSchemaUp(db, config);
  const events: EventBus = kind === 'postgres' && url ? await PostgresEventBus.connect(url) : new LocalEventBus();
  // Hosting services the seed makes get their own system user and home at once (system driver).
  const users = createServiceUsers(db, config, () => nowSeconds());
  const admin = new AdminService(db, events, () => nowSeconds(), {
    serviceReady: (resource) => users.ensure(resource.id, resource.referencePunycode),
  });
  const seed = config.seedDemo ?? kind === 'sqlite';
  const dnsDriver = createDnsDriver(config);
  if (seed) {
    const secretKey = loadSecretKey(config);
    const brands = new BrandService(db);
    const databases = createDatabasesService(db, config, brands, secretKey, () => nowSeconds());
    const hosting = createHostingService(db, config, brands, secretKey, () => nowSeconds());
    try {
      await seedDemo(admin, nowSeconds(), {
        db,
        dns: createDnsService(db, config, dnsDriver, () => nowSeconds()),
        domains: createDomainServices(db, config, dnsDriver, secretKey, () => nowSeconds()).domains,
        ftp: createFtpService(db, config, brands, secretKey, () => nowSeconds()),
        databases,
        hosting,
      });
    } finally {
      await databases.close();
      await hosting.close();
    }
  } else await ensureDefaultBrand(admin);
  const jobs = createJobEngine({ db, kind, url });
  const sender = startingSender(jobs);
  return {
    db,
    kind,
    events,
    dnsDriver,
    jobs,
    sender,
    async close() {
      await sender.stop();
      await events.close();
      await db.destroy();
    },
  };
}
