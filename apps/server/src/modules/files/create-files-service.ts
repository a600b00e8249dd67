import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { FileWorkers } from '../../drivers/files/confined/protocol.ts';
import { ServiceFiles } from '../../drivers/files/service-files.ts';
import { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { FilesService } from './files.service.ts';
import { createHomeWork, serviceFileOwner } from './service-file-owner.ts';

export function createFilesService(
  db: Db,
  config: AppConfig,
  workers: FileWorkers,
  permissions: PermissionService = new PermissionService(db),
): FilesService {
  const owner = { uid: config.hosting.uid, gid: config.hosting.gid };
  return new FilesService(
    db,
    permissions,
    new ServiceHomes(config.hosting.root as string, owner, createHomeWork(db, config, workers)),
    new ServiceFiles(workers, path.join(config.dataDir, 'uploads')),
    serviceFileOwner(db, config),
  );
}
