import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { FileWorkers } from '../../drivers/files/confined/protocol.ts';
import { createFtpDriver } from '../../drivers/ftp/create-ftp-driver.ts';
import type { FtpDriver } from '../../drivers/ftp/ftp.driver.ts';
import { type ChangeDelivery, ServiceChanges } from '../../jobs/service-changes.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { createHomeWork } from '../files/service-file-owner.ts';
import { PermissionService } from '../permission/permission.service.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { SignonTokens } from '../signon/signon-tokens.ts';
import { FtpService } from './ftp.service.ts';
import { APPLY_FTP, FtpApplyWorker } from './ftp-apply-worker.ts';
import { SftpKeysService } from './sftp-keys.service.ts';

/** A machine's FTP side: its driver, and what applies the services' FTP changes (the node agent builds only this). */
export function createFtpNode(
  db: Db,
  config: AppConfig,
  now: () => number,
  landed?: WorkLanded,
  workers?: FileWorkers,
) {
  // New accounts' folders are made by their service's worker, as its user.
  const driver = createFtpDriver(config, createHomeWork(db, config, workers));
  return { driver, worker: new FtpApplyWorker(db, driver, now, config.agent.node, landed) };
}

export function createFtpService(
  db: Db,
  config: AppConfig,
  brands: BrandService,
  secretKey: Buffer,
  now: () => number,
  options: {
    permissions?: PermissionService;
    /** How FTP changes reach the FTP server (default: applied in this process, for the CLI and seeds). */
    delivery?: ChangeDelivery;
    landed?: WorkLanded;
    /** This machine's FTP side, when the caller binds its worker too. */
    node?: { driver: FtpDriver; worker: FtpApplyWorker };
  } = {},
) {
  const node = options.node ?? createFtpNode(db, config, now, options.landed);
  const changes = new ServiceChanges(db, APPLY_FTP, node.worker, options.delivery ?? { inline: true }, now, {
    undone: 'ftp.error.undone',
  });
  const permissions = options.permissions ?? new PermissionService(db);
  return new FtpService(
    db,
    permissions,
    brands,
    node.driver,
    changes,
    new SecretBox(secretKey, 'ftp-password'),
    new SignonTokens(db, now),
    config.hosting,
    now,
    new SftpKeysService(db, permissions, changes, now),
  );
}
