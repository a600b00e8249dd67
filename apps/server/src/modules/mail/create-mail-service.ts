import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { SignonTokens } from '../signon/signon-tokens.ts';
import { MailService } from './mail.service.ts';
import { Maildirs } from './maildir.ts';

export function createMailService(db: Db, config: AppConfig, brands: BrandService, now: () => number): MailService {
  return new MailService(
    db,
    new PermissionService(db),
    brands,
    new Maildirs(config.mail.root as string),
    new SignonTokens(db, now),
    config.mail,
    now,
  );
}
