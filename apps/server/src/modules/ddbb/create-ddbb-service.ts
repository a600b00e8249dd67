import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { createDdbbDriver } from '../../drivers/ddbb/create-ddbb-driver.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { SignonTokens } from '../signon/signon-tokens.ts';
import { DdbbService } from './ddbb.service.ts';

export function createDdbbService(
  db: Db,
  config: AppConfig,
  brands: BrandService,
  secretKey: Buffer,
  now: () => number,
): DdbbService {
  return new DdbbService(
    db,
    new PermissionService(db),
    brands,
    createDdbbDriver(config),
    new SecretBox(secretKey, 'database-password'),
    new SignonTokens(db, now),
    config.databases,
    now,
  );
}
