import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { MailClientSetupService } from './mail-client-setup.service.ts';

export function createMailClientSetupService(
  db: Db,
  config: AppConfig,
  brands: BrandService,
  permissions: PermissionService = new PermissionService(db),
): MailClientSetupService {
  return new MailClientSetupService(db, permissions, brands, config.mail);
}
