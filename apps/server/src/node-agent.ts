import type { AppConfig } from './config.ts';
import type { Db } from './db/database.ts';
import type { DnsDriver } from './drivers/dns/dns.driver.ts';
import { type ServiceApplier, workServiceApplying } from './jobs/apply-service.jobs.ts';
import type { JobEngine } from './jobs/job-engine.ts';
import { BrandService } from './modules/brand/brand.service.ts';
import { createDatabasesNode } from './modules/databases/create-databases-service.ts';
import { APPLY_DATABASES } from './modules/databases/databases-apply-worker.ts';
import { workZonePublishing } from './modules/dns/zone-publish.jobs.ts';
import { createZonePublishing } from './modules/dns/zone-publishing-node.ts';
import { createFtpNode } from './modules/ftp/create-ftp-service.ts';
import { APPLY_FTP } from './modules/ftp/ftp-apply-worker.ts';
import { workCertificateOrders } from './modules/hosting/certificate.jobs.ts';
import type { HostingServices } from './modules/hosting/create-hosting-service.ts';
import { APPLY_WEB } from './modules/hosting/web-apply.jobs.ts';
import { createWebNode } from './modules/hosting/web-node.ts';
import { createMailNode } from './modules/mail/create-mail-service.ts';
import { APPLY_MAIL } from './modules/mail/mail-apply-worker.ts';
import { PermissionService } from './modules/permission/permission.service.ts';
import type { EventBus } from './modules/realtime/event-bus.ts';
import { type WorkLanded, workEvents } from './modules/realtime/work-events.ts';

/**
 * What touches a server's files and daemons: the jobs that apply a service's web, FTP, mail and database changes,
 * publish its zone and order its certificates. The agent binds them; so does the panel's own process when it is also its
 * machine's agent (PANEL_AGENT=embedded, the default), so `npm start` stays one command.
 */
export interface NodeWorkers {
  web: ServiceApplier;
  ftp: ServiceApplier;
  mail: ServiceApplier;
  databases: ServiceApplier;
  /** Sites' and the mail daemons' certificates, ordered and installed (ACME's challenges are the node's). */
  certificates: { site(serviceId: number, siteId: number): Promise<void>; mail(name: string): Promise<void> };
  dns: { run(zone: { serviceId: number; name: string }): Promise<void> };
}

export async function bindNodeWork(jobs: JobEngine, workers: NodeWorkers): Promise<void> {
  await workServiceApplying(jobs, APPLY_WEB, workers.web);
  await workServiceApplying(jobs, APPLY_FTP, workers.ftp);
  await workServiceApplying(jobs, APPLY_MAIL, workers.mail);
  await workServiceApplying(jobs, APPLY_DATABASES, workers.databases);
  await workCertificateOrders(jobs, workers.certificates);
  await workZonePublishing(jobs, workers.dns);
}

export interface NodeAgentDeps {
  config: AppConfig;
  db: Db;
  events: EventBus;
  dnsDriver: DnsDriver;
  /** The work log (not started: the agent starts it with its workers and stops it). */
  jobs: JobEngine;
  secretKey: Buffer;
  /** Epoch milliseconds. */
  clock?: () => number;
}

export interface NodeAgent {
  stop(): Promise<void>;
}

/**
 * A node agent without the API: the node's workers on the work log, built from the same
 * factories as the panel's (the drivers the configuration names for this machine). It answers
 * no HTTP; the control plane's instances send its jobs, and its results reach their requests
 * through the log and their browsers through the event bus.
 */
export async function startNodeAgent(deps: NodeAgentDeps): Promise<NodeAgent> {
  const { config, db, jobs } = deps;
  const clock = deps.clock ?? Date.now;
  const now = () => Math.floor(clock() / 1000);
  // Only the node's parts: no zone-changing, domain or customer-facing services, so an agent
  // holds little more than its drivers and the work log (the start bench holds it to 80 MB).
  const permissions = new PermissionService(db);
  const landed: WorkLanded = workEvents(permissions, deps.events);
  const web = createWebNode(db, config, deps.secretKey, now, { landed });
  // The certificates' orders need the hosting services (an ACME client among them): made at the
  // first order, not at start. A certificate's install is a web change like any other, sent
  // through the work log to the `web.apply-service` jobs this agent takes.
  let hosting: Promise<HostingServices> | undefined;
  const certificates = async () => {
    hosting ??= import('./modules/hosting/create-hosting-service.ts').then(({ createHostingService }) =>
      createHostingService(db, config, new BrandService(db), deps.secretKey, now, web.driver, {
        dnsDriver: deps.dnsDriver,
        jobs,
        permissions,
        users: web.users,
        webDelivery: { jobs, waitMs: config.web.applyWaitSeconds * 1000 },
        landed,
        log: (error, site) => console.error(`certificate order of site ${site} failed:`, error),
      }),
    );
    return (await hosting).certificates;
  };
  const zones = createZonePublishing(
    db,
    deps.dnsDriver,
    {
      nameservers: config.dns.nameservers,
      defaultTtl: config.dns.defaultTtl,
      history: { keep: config.dns.historyKeep, days: config.dns.historyDays },
    },
    now,
    jobs,
    { recheckSeconds: config.dns.republishSeconds },
    landed,
  );
  const ftp = createFtpNode(db, config, now, landed);
  const mail = createMailNode(db, config, now, { landed });
  const databases = createDatabasesNode(db, config, deps.secretKey, now, landed);
  await jobs.start({ workers: true });
  await bindNodeWork(jobs, {
    web: web.worker,
    ftp: ftp.worker,
    mail: mail.worker,
    databases: databases.worker,
    dns: zones,
    certificates: {
      site: async (serviceId, siteId) => (await certificates()).order(serviceId, siteId),
      mail: async (name) => (await certificates()).orderMail(name),
    },
  });
  const stopDatabases = () => databases.driver.close();
  return {
    async stop() {
      await jobs.stop();
      await stopDatabases();
      await (await hosting)?.close();
    },
  };
}
