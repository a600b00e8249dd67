import type { AreaServices } from './composition/area-services.ts';
import type { NodeParts } from './composition/node-parts.ts';
import type { PanelBase } from './composition/panel-base.ts';
import { type ServiceApplier, workServiceApplying } from './jobs/apply-service.jobs.ts';
import type { JobEngine, JobRun } from './jobs/job-engine.ts';
import { type BackupWorkers, workBackupRuns } from './modules/backups/backup-jobs.ts';
import { createCronRunner } from './modules/cron/create-cron.ts';
import { type CronRunOrder, workCronRuns } from './modules/cron/cron.jobs.ts';
import { APPLY_DATABASES } from './modules/databases/databases-apply-worker.ts';
import { workZonePublishing } from './modules/dns/zone-publish.jobs.ts';
import { type UnsignStep, workZoneUnsigning } from './modules/domain/zone-dnssec.jobs.ts';
import { APPLY_FTP } from './modules/ftp/ftp-apply-worker.ts';
import { workCertificateOrders } from './modules/hosting/certificate.jobs.ts';
import { APPLY_WEB } from './modules/hosting/web-apply.jobs.ts';
import { webMoveWork } from './modules/hosting/web-move-work.ts';
import { type InstallOrder, workInstalls } from './modules/installer/installer.jobs.ts';
import { workDkimSigning } from './modules/mail/dkim-signing.jobs.ts';
import type { DkimKeysDelivery } from './modules/mail/dkim-signing.ts';
import { APPLY_MAIL } from './modules/mail/mail-apply-worker.ts';
import { mailMoveWork } from './modules/mail/mail-move-work.ts';
import { type MovablePart, type PartMoveWork, workPartMoves } from './modules/nodes/part-move.jobs.ts';
import { type PartRemovalWork, workPartRemovals } from './modules/nodes/part-removal.jobs.ts';
import { createServiceTerminations } from './modules/provider/create-service-terminations.ts';
import { TERMINATE_SERVICE } from './modules/provider/service-termination.ts';
import { createStatsRefresher } from './modules/stats/create-stats.ts';
import { workStatsRefreshes } from './modules/stats/stats.jobs.ts';
import { createNodeSync, NODE_SYNC } from './node-sync.ts';

/**
 * What touches a server's files and daemons: the jobs that apply a service's web, FTP, mail and
 * database changes, publish and unsign its zone, order its certificates, back it up and restore
 * it, install applications into its home, give the DKIM signer its mail domains' keys, and run
 * the drivers' sync as a safety net. The node agent binds them; so does the panel's own
 * process when it is also its machine's agent (PANEL_AGENT=embedded, the default), so `npm start`
 * stays one command. API instances with a separate agent bind none of them.
 */
export interface NodeWorkers {
  web: ServiceApplier;
  ftp: ServiceApplier;
  mail: ServiceApplier;
  databases: ServiceApplier;
  dns: { run(zone: { serviceId: number; name: string }): Promise<void> };
  /** Sites' and the mail daemons' certificates, ordered and installed (ACME's challenges are the node's). */
  certificates: { site(serviceId: number, siteId: number): Promise<void>; mail(name: string): Promise<void> };
  backups: BackupWorkers;
  installs: { run(order: InstallOrder): Promise<void> };
  /** Scheduled tasks' runs, as the service's user (modules/cron). */
  cron: { run(order: CronRunOrder): Promise<void> };
  /** Site statistics read from the access logs (modules/stats). */
  stats: { refresh(serviceId: number): Promise<unknown> };
  unsigning: { advance(step: UnsignStep, run: JobRun, lastTry: boolean): Promise<void> };
  dkim: DkimKeysDelivery;
  /** A terminated service's work (service-termination.ts), on the control plane's machine. */
  terminations: { run(serviceId: number, lastTry: boolean): Promise<void> };
  /** The drivers' sync on a schedule, the safety net (node-sync.ts). */
  sync: { run(): Promise<unknown> };
  /**
   * Each part's move's two ends (serving a service that arrived, releasing one that left), and
   * its removal when the service is terminated.
   */
  moves: Record<MovablePart, PartMoveWork & PartRemovalWork>;
}

export async function bindNodeWork(jobs: JobEngine, workers: NodeWorkers): Promise<void> {
  await workServiceApplying(jobs, APPLY_WEB, workers.web);
  await workServiceApplying(jobs, APPLY_FTP, workers.ftp);
  await workServiceApplying(jobs, APPLY_MAIL, workers.mail);
  await workServiceApplying(jobs, APPLY_DATABASES, workers.databases);
  await workCertificateOrders(jobs, workers.certificates);
  await workZonePublishing(jobs, workers.dns);
  await workZoneUnsigning(jobs, workers.unsigning);
  await workBackupRuns(jobs, workers.backups);
  await workInstalls(jobs, workers.installs);
  await workCronRuns(jobs, workers.cron);
  await workStatsRefreshes(jobs, workers.stats);
  await workDkimSigning(jobs, workers.dkim);
  await jobs.work(NODE_SYNC, async () => void (await workers.sync.run()));
  await jobs.work(TERMINATE_SERVICE, ({ serviceId }, run) =>
    workers.terminations.run(serviceId, run.retries >= TERMINATE_SERVICE.retry.limit),
  );
  await workPartMoves(jobs, workers.moves);
  await workPartRemovals(jobs, workers.moves);
}

/**
 * A node's workers from its parts. The background kinds need the area services, asked for at
 * their first job: the panel hands the ones it built, the agent builds them then.
 */
export function nodeWorkers(
  base: PanelBase,
  node: NodeParts,
  dns: NodeWorkers['dns'],
  areas: () => Promise<AreaServices>,
): NodeWorkers {
  return {
    web: node.web.worker,
    ftp: node.ftp.worker,
    mail: node.mail.worker,
    databases: node.databases.worker,
    dns,
    certificates: {
      site: async (serviceId, siteId) => (await areas()).hosting.certificates.order(serviceId, siteId),
      mail: async (name) => (await areas()).hosting.certificates.orderMail(name),
    },
    backups: {
      run: async (target, lastTry) => (await areas()).backupRunner.run(target, lastTry),
      daily: async (run) => (await areas()).backupRunner.daily(run),
    },
    installs: { run: async (order) => (await areas()).installer.run(order) },
    cron: createCronRunner(base.db, base.config, base.now),
    stats: createStatsRefresher(base.db, base.config, node.web.driver, base.now),
    dkim: node.dkim,
    sync: createNodeSync(base, node, areas),
    terminations: createServiceTerminations(base, async () => (await areas()).backups),
    moves: {
      web: webMoveWork(base.db, base.config, node.web, node.fileWorkers, node.ftp.worker, base.now),
      mail: mailMoveWork(base.db, base.config, node.mail, node.dkim, base.now),
      databases: node.databases.moves,
    },
    unsigning: {
      advance: async (step, run, lastTry) => (await areas()).domains.zoneDnssec.advance(step, run, lastTry),
    },
  };
}
