import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { createDdbbDriver } from '../../drivers/ddbb/create-ddbb-driver.ts';
import { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import { createWebDriver } from '../../drivers/web/create-web-driver.ts';
import type { WebDriver } from '../../drivers/web/web.driver.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { HostingChanges } from './hosting-changes.ts';
import { HostingOverviewService } from './hosting-overview.service.ts';
import type { HostingSettings } from './hosting-settings.ts';
import { RedirectionService } from './redirection.service.ts';
import { SiteService } from './site.service.ts';
import { SiteBuilderService } from './site-builder.service.ts';

/** The web side of hosting services, one service per concern, sharing how a service is changed. */
export interface HostingServices {
  overview: HostingOverviewService;
  siteBuilder: SiteBuilderService;
  redirections: RedirectionService;
  sites: SiteService;
  /** Whether sites reach a real web server, and how the demo seed makes one service served. */
  changes: HostingChanges;
  close(): Promise<void>;
}

export function createHostingService(
  db: Db,
  config: AppConfig,
  brands: BrandService,
  secretKey: Buffer,
  now: () => number,
  webDriver: WebDriver = createWebDriver(config),
): HostingServices {
  const homes = new ServiceHomes(config.hosting.root as string, { uid: config.hosting.uid, gid: config.hosting.gid });
  const keys = new SecretBox(secretKey, 'site-private-key');
  const settings: HostingSettings = {
    phpVersions: Object.keys(config.web.phpSockets),
    defaultPhpVersion: config.web.defaultPhpVersion,
    webSpaceMb: config.hosting.webSpaceMb,
    trafficMb: config.hosting.trafficMb,
    databaseSpaceMb: config.hosting.databaseSpaceMb,
    maxDatabases: config.databases.maxPerService,
    siteBuilderUrl: config.hosting.siteBuilderUrl,
    siteBuilderKey: config.hosting.siteBuilderKey,
  };
  const changes = new HostingChanges(db, new PermissionService(db), homes, webDriver, keys, settings, now);
  // Only for the overview's database usage (a MariaDB pool connects on first use).
  const overview = new HostingOverviewService(db, changes, homes, webDriver, createDdbbDriver(config), settings, now);
  return {
    overview,
    siteBuilder: new SiteBuilderService(db, changes, brands, settings, now),
    redirections: new RedirectionService(db, changes, now),
    sites: new SiteService(db, changes, keys, now),
    changes,
    close: () => overview.close(),
  };
}
