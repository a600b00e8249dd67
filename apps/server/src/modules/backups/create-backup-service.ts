import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { BackupFiles } from '../../drivers/backups/backup-files.ts';
import { ResticRepositories } from '../../drivers/backups/restic-repositories.ts';
import type { DnsDriver } from '../../drivers/dns/dns.driver.ts';
import { sharedWorkers } from '../../drivers/files/confined/confined-workers.ts';
import type { FileWorkers } from '../../drivers/files/confined/protocol.ts';
import { ServiceFiles } from '../../drivers/files/service-files.ts';
import { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { BrandService } from '../brand/brand.service.ts';
import { createDatabasesService } from '../databases/create-databases-service.ts';
import type { DatabasesService } from '../databases/databases.service.ts';
import { createDnsService, type DnsService } from '../dns/dns.service.ts';
import { serviceFileOwner } from '../files/service-file-owner.ts';
import { BackupService, type PartsElsewhere } from './backup.service.ts';

/**
 * The backup service. The server hands it the databases' and zones' services it already runs
 * (one MariaDB pool, one zone publisher); the CLI, the tests and the bench let it make its own,
 * which `close` then ends.
 */
export function createBackupService(
  db: Db,
  config: AppConfig,
  dnsDriver: DnsDriver,
  secretKey: Buffer,
  now: () => number,
  shared: {
    databases?: DatabasesService;
    dns?: DnsService;
    workers?: FileWorkers;
    /** Where a restore's DNS changes go when the DNS service is built here (the CLI's sender). */
    jobs?: JobSender;
    /** The homes and mail folders other machines hold (parts-elsewhere.ts); none: all here. */
    elsewhere?: PartsElsewhere | undefined;
  } = {},
): { backups: BackupService; close: () => Promise<void> } {
  const owner = { uid: config.hosting.uid, gid: config.hosting.gid };
  // Outside the app (the CLI, tests) the process's shared workers, which need no closing.
  const workers = shared.workers ?? sharedWorkers();
  const databases = shared.databases ?? createDatabasesService(db, config, new BrandService(db), secretKey, now);
  const backups = new BackupService(
    db,
    new ResticRepositories({
      repository: config.backups.repository as string,
      passwordFile: config.backups.passwordFile as string,
      binary: config.backups.resticBinary,
    }),
    new BackupFiles(path.join(config.dataDir, 'backups')),
    new ServiceHomes(config.hosting.root as string, owner),
    new ServiceFiles(workers, path.join(config.dataDir, 'uploads')),
    databases,
    shared.dns ?? createDnsService(db, config, dnsDriver, now, shared.jobs),
    {
      mailRoot: config.mail.root as string,
      retention: {
        daily: config.backups.keepDaily,
        weekly: config.backups.keepWeekly,
        monthly: config.backups.keepMonthly,
        withinHours: config.backups.keepWithinHours,
      },
      ownerOf: serviceFileOwner(db, config),
    },
    shared.elsewhere,
  );
  return {
    backups,
    close: () => (shared.databases ? Promise.resolve() : databases.close()),
  };
}
