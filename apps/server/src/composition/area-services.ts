import type { FileWorkers } from '../drivers/files/confined/protocol.ts';
import type { BackupService } from '../modules/backups/backup.service.ts';
import { BackupRunner } from '../modules/backups/backup-runner.ts';
import { createBackupService } from '../modules/backups/create-backup-service.ts';
import { BrandService } from '../modules/brand/brand.service.ts';
import { createDatabasesService } from '../modules/databases/create-databases-service.ts';
import type { DatabasesService } from '../modules/databases/databases.service.ts';
import { createDnsService, type DnsService } from '../modules/dns/dns.service.ts';
import { createDomainServices, type DomainServices } from '../modules/domain/create-domain-services.ts';
import type { DomainContactService } from '../modules/domain/domain-contact.service.ts';
import { createHostingService, type HostingServices } from '../modules/hosting/create-hosting-service.ts';
import { createInstallerService } from '../modules/installer/create-installer-service.ts';
import type { InstallerService } from '../modules/installer/installer.service.ts';
import { createPlansService } from '../modules/plans/create-plans-service.ts';
import type { PlansService } from '../modules/plans/plans.service.ts';
import type { NodeParts } from './node-parts.ts';
import type { PanelBase } from './panel-base.ts';

/**
 * The services of the areas whose background work a node runs (certificates, backups and
 * restores, installs, unsigning) as well as the panel's calls: built once by the panel, and by a
 * node agent at its first such job (their modules are most of the panel's code; an agent that
 * never runs one never loads them).
 */
export interface AreaServices {
  brands: BrandService;
  hosting: HostingServices;
  plans: PlansService;
  databases: DatabasesService;
  dns: DnsService;
  domains: DomainServices;
  contacts: DomainContactService;
  backups: BackupService;
  backupRunner: BackupRunner;
  installer: InstallerService;
  /** Every operation in a customer's home runs in a worker process of its own, as that customer (the node's). */
  fileWorkers: FileWorkers;
  close(): Promise<void>;
}

export function composeAreas(base: PanelBase, node: NodeParts): AreaServices {
  const { db, config, secretKey, now, jobs, permissions, landed, delivery, dnsDriver, log } = base;
  const brands = new BrandService(db);
  // One DNS service for every area of the process.
  const dns = createDnsService(db, config, dnsDriver, now, jobs, permissions, landed);
  const { domains, contacts } = createDomainServices(db, config, dnsDriver, secretKey, now, {
    jobs,
    permissions,
    dns,
    events: {
      unsignFailed: (error, job) =>
        log.error({ err: error, event: 'dnssec.unsign_failed', job }, 'dnssec unsigning failed'),
      cdsChanged: (change) => log.info({ event: 'dnssec.cds_applied', ...change }, 'DS updated from CDS'),
    },
  });
  const databases = createDatabasesService(db, config, brands, secretKey, now, {
    permissions,
    delivery,
    node: node.databases,
  });
  const { fileWorkers } = node;
  const backups = createBackupService(db, config, dnsDriver, secretKey, now, {
    databases,
    dns,
    workers: fileWorkers,
    elsewhere: node.elsewhere,
  });
  const hosting = createHostingService(db, config, brands, secretKey, now, node.web.driver, {
    dnsDriver,
    jobs,
    permissions,
    webDelivery: delivery,
    landed,
    node: node.web,
    databasesDriver: node.databases.driver,
    log: (error, site) => log.error({ err: error, event: 'acme.order_failed', site }, 'certificate order failed'),
  });
  const installer = createInstallerService(
    db,
    config,
    { hosting, databases, permissions },
    now,
    fileWorkers,
    log,
    jobs,
    secretKey,
  );
  return {
    brands,
    hosting,
    plans: createPlansService(db, config, now, hosting),
    databases,
    dns,
    domains,
    contacts,
    backups: backups.backups,
    backupRunner: new BackupRunner(db, backups.backups, now, log),
    installer,
    fileWorkers,
    async close() {
      await domains.close();
      await hosting.close();
    },
  };
}
