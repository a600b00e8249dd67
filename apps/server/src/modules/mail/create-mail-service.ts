import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { MailDriver } from '../../drivers/mail/mail.driver.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { SignonTokens } from '../signon/signon-tokens.ts';
import { MailService } from './mail.service.ts';

export function createMailService(
  db: Db,
  config: AppConfig,
  driver: MailDriver,
  brands: BrandService,
  now: () => number,
  permissions: PermissionService = new PermissionService(db),
): MailService {
  return new MailService(db, permissions, brands, driver, new SignonTokens(db, now), config.mail, now);
}
