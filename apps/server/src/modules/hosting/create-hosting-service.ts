import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { createDdbbDriver } from '../../drivers/ddbb/create-ddbb-driver.ts';
import { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import { createWebDriver } from '../../drivers/web/create-web-driver.ts';
import type { WebDriver } from '../../drivers/web/web.driver.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { HostingService } from './hosting.service.ts';

export function createHostingService(
  db: Db,
  config: AppConfig,
  brands: BrandService,
  secretKey: Buffer,
  now: () => number,
  webDriver: WebDriver = createWebDriver(config),
): HostingService {
  return new HostingService(
    db,
    new PermissionService(db),
    brands,
    new ServiceHomes(config.hosting.root as string, { uid: config.hosting.uid, gid: config.hosting.gid }),
    webDriver,
    // Only for the overview's database usage (a MariaDB pool connects on first use).
    createDdbbDriver(config),
    new SecretBox(secretKey, 'site-private-key'),
    {
      phpVersions: Object.keys(config.web.phpSockets),
      defaultPhpVersion: config.web.defaultPhpVersion,
      webSpaceMb: config.hosting.webSpaceMb,
      trafficMb: config.hosting.trafficMb,
      databaseSpaceMb: config.hosting.databaseSpaceMb,
      maxDatabases: config.databases.maxPerService,
      siteBuilderUrl: config.hosting.siteBuilderUrl,
      siteBuilderKey: config.hosting.siteBuilderKey,
    },
    now,
  );
}
