import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { BackupFiles } from '../../drivers/backups/backup-files.ts';
import { ResticRepositories } from '../../drivers/backups/restic-repositories.ts';
import type { DnsDriver } from '../../drivers/dns/dns.driver.ts';
import { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import { BrandService } from '../brand/brand.service.ts';
import { createDdbbService } from '../ddbb/create-ddbb-service.ts';
import { createDnsService } from '../dns/dns.service.ts';
import { BackupService } from './backup.service.ts';

export function createBackupService(
  db: Db,
  config: AppConfig,
  dnsDriver: DnsDriver,
  secretKey: Buffer,
  now: () => number,
): { backups: BackupService; close: () => Promise<void> } {
  const owner = { uid: config.hosting.uid, gid: config.hosting.gid };
  const ddbb = createDdbbService(db, config, new BrandService(db), secretKey, now);
  const backups = new BackupService(
    db,
    new ResticRepositories({
      repository: config.backups.repository as string,
      passwordFile: config.backups.passwordFile as string,
      binary: config.backups.resticBinary,
    }),
    new BackupFiles(path.join(config.dataDir, 'backups')),
    new ServiceHomes(config.hosting.root as string, owner),
    ddbb,
    createDnsService(db, config, dnsDriver, now),
    {
      mailRoot: config.mail.root as string,
      quotaBytes: config.backups.quotaMb * 1024 * 1024,
      retention: {
        daily: config.backups.keepDaily,
        weekly: config.backups.keepWeekly,
        monthly: config.backups.keepMonthly,
      },
      owner,
    },
  );
  return { backups, close: () => ddbb.close() };
}
