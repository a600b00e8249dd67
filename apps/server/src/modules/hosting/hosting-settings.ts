import type { AppConfig } from '../../config.ts';

/** What the operator configured for hosting services: PHP versions and the site builder (limits are the plans'). */
export interface HostingSettings {
  phpVersions: string[];
  defaultPhpVersion: string;
  /** The site builder when the brand names no host of its own, and the key its tokens are signed with. */
  siteBuilderUrl: string;
  siteBuilderKey?: string | undefined;
}

export function hostingSettingsOf(config: AppConfig): HostingSettings {
  return {
    phpVersions: Object.keys(config.web.phpSockets),
    defaultPhpVersion: config.web.defaultPhpVersion,
    siteBuilderUrl: config.hosting.siteBuilderUrl,
    siteBuilderKey: config.hosting.siteBuilderKey,
  };
}
