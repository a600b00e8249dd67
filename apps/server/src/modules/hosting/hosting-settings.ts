import type { AppConfig } from '../../config.ts';

/** What the operator configured for hosting services: PHP versions, plan limits, the site builder. */
export interface HostingSettings {
  phpVersions: string[];
  defaultPhpVersion: string;
  webSpaceMb: number;
  trafficMb: number;
  databaseSpaceMb: number;
  maxDatabases: number;
  /** The site builder when the brand names no host of its own, and the key its tokens are signed with. */
  siteBuilderUrl: string;
  siteBuilderKey?: string | undefined;
}

export function hostingSettingsOf(config: AppConfig): HostingSettings {
  return {
    phpVersions: Object.keys(config.web.phpSockets),
    defaultPhpVersion: config.web.defaultPhpVersion,
    webSpaceMb: config.hosting.webSpaceMb,
    trafficMb: config.hosting.trafficMb,
    databaseSpaceMb: config.hosting.databaseSpaceMb,
    maxDatabases: config.databases.maxPerService,
    siteBuilderUrl: config.hosting.siteBuilderUrl,
    siteBuilderKey: config.hosting.siteBuilderKey,
  };
}
