import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import type { WebService } from '../../drivers/web/web.driver.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { hostingRepository } from './hosting.repository.ts';
import type { HostingSettings } from './hosting-settings.ts';
import type { ServiceUsers } from './service-users.ts';

/** The site folders a change creates and checks: those it names, or every site's. */
export type FolderPreparation = readonly string[] | 'all';

/**
 * A hosting service as the database has it, in the web driver's terms: what the node applies.
 * Reading it prepares the site folders named (created and checked against escapes by the
 * service's own worker, as its user).
 */
export class WebModel {
  constructor(
    private readonly homes: ServiceHomes,
    private readonly keys: SecretBox,
    private readonly settings: Pick<HostingSettings, 'phpVersions' | 'defaultPhpVersion'>,
    /** Each service's own system user, whose PHP pool and folders it gets (none: the web server's user). */
    private readonly users?: ServiceUsers,
  ) {}

  /**
   * With `hosts`, the sites and redirections of those subdomains only. The folders in `prepare`
   * are created and checked ('all': every site's, as a sync or a first apply needs; a dry run
   * passes none and leaves the disk alone).
   */
  async read(
    db: Db,
    service: { id: number; domain: string },
    prepare: FolderPreparation,
    hosts?: readonly string[],
  ): Promise<WebService> {
    const settings = await hostingRepository.settings(db, service.id);
    const sites = await hostingRepository.sites(db, service.id, hosts);
    const redirections = await hostingRepository.redirections(db, service.id, hosts);
    // A version the operator no longer runs falls back to the default rather than blocking every change.
    const chosen = settings?.php_version ?? '';
    const php = this.settings.phpVersions.includes(chosen) ? chosen : this.settings.defaultPhpVersion;
    const pool = await this.users?.poolOf(db, service.id);
    const webSites: WebService['sites'] = [];
    for (const site of sites) {
      if (prepare === 'all' || prepare.includes(site.folder))
        await this.homes.prepare(service.domain, site.folder, 'folder');
      webSites.push({
        subdomain: site.subdomain,
        folder: site.folder,
        ...(site.ssl_active === 1 && site.cert_pem && site.key_sealed
          ? {
              ssl: {
                certPem: site.cert_pem,
                keyPem: this.keys.open(site.key_sealed),
                ...(site.cert_chain_pem ? { chainPem: site.cert_chain_pem } : {}),
              },
            }
          : {}),
      });
    }
    return {
      serviceId: service.id,
      domain: service.domain,
      home: this.homes.home(service.domain),
      phpVersion: php,
      phpWorkers: (await planLimits.of(db, service.id)).phpWorkers,
      ...(pool ? { pool } : {}),
      parking: settings?.parking === 1,
      suspended: await hostingRepository.suspended(db, service.id),
      sites: webSites,
      redirections: redirections.map((row) => ({
        subdomain: row.subdomain,
        path: row.path,
        url: row.url,
        type: row.type === 'frame' ? 'frame' : (Number(row.type) as 301 | 302),
        ...(row.type === 'frame'
          ? { frame: { title: row.iframe_title, description: row.iframe_description, keywords: row.iframe_keywords } }
          : {}),
      })),
    };
  }
}
