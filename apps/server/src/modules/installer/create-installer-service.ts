import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { FileWorkers } from '../../drivers/files/confined/protocol.ts';
import { ServiceFiles } from '../../drivers/files/service-files.ts';
import { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import { FileSystemInstallerDriver } from '../../drivers/installer/filesystem.driver.ts';
import type { JobEngine } from '../../jobs/job-engine.ts';
import type { DatabasesService } from '../databases/databases.service.ts';
import { createHomeWork, serviceFileOwner } from '../files/service-file-owner.ts';
import type { HostingServices } from '../hosting/create-hosting-service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { AppCatalogue } from './app-catalogue.ts';
import { InstallerService } from './installer.service.ts';

export function createInstallerService(
  db: Db,
  config: AppConfig,
  services: { hosting: HostingServices; databases: DatabasesService; permissions?: PermissionService },
  now: () => number,
  workers: FileWorkers,
  log: { warn: (detail: object, message: string) => void; error: (detail: object, message: string) => void },
  jobs: Pick<JobEngine, 'send' | 'find'>,
  secretKey: Buffer,
): InstallerService {
  const maxBytes = config.installer.maxSizeMb * 1024 * 1024;
  const files = new FileSystemInstallerDriver(new ServiceFiles(workers, path.join(config.dataDir, 'uploads')));
  const catalogue = new AppCatalogue(files, config.installer.appsDir as string, maxBytes, (folder, problem) =>
    log.warn({ event: 'installer.package_invalid', folder, problem }, 'application package left out'),
  );
  return new InstallerService(
    db,
    services.permissions ?? new PermissionService(db),
    services.hosting.sites,
    services.databases,
    new ServiceHomes(
      config.hosting.root as string,
      { uid: config.hosting.uid, gid: config.hosting.gid },
      createHomeWork(db, config, workers),
    ),
    files,
    catalogue,
    { databaseHost: config.databases.host, databasePort: config.databases.port, maxBytes },
    now,
    (detail, message) => log.error(detail, message),
    serviceFileOwner(db, config),
    jobs,
    new SecretBox(secretKey, 'install-values'),
  );
}
