import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { createDatabasesDriver } from '../../drivers/databases/create-databases-driver.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { SignonTokens } from '../signon/signon-tokens.ts';
import { DatabasesService } from './databases.service.ts';

export function createDatabasesService(
  db: Db,
  config: AppConfig,
  brands: BrandService,
  secretKey: Buffer,
  now: () => number,
  permissions: PermissionService = new PermissionService(db),
): DatabasesService {
  return new DatabasesService(
    db,
    permissions,
    brands,
    createDatabasesDriver(config),
    new SecretBox(secretKey, 'database-password'),
    new SignonTokens(db, now),
    config.databases,
    now,
  );
}
