import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { createFtpDriver } from '../../drivers/ftp/create-ftp-driver.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { createHomeWork } from '../files/service-file-owner.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { SignonTokens } from '../signon/signon-tokens.ts';
import { FtpService } from './ftp.service.ts';

export function createFtpService(
  db: Db,
  config: AppConfig,
  brands: BrandService,
  secretKey: Buffer,
  now: () => number,
  permissions: PermissionService = new PermissionService(db),
) {
  return new FtpService(
    db,
    permissions,
    brands,
    // New accounts' folders are made by their service's worker, as its user.
    createFtpDriver(config, createHomeWork(db, config)),
    new SecretBox(secretKey, 'ftp-password'),
    new SignonTokens(db, now),
    config.hosting,
    now,
  );
}
