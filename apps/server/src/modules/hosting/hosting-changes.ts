import type { PermissionKey } from '@panel247/contract/constants';
import type { HostingService as HostingServiceDto } from '@panel247/contract/hosting';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import type { WebDriver, WebService } from '../../drivers/web/web.driver.ts';
import { hostsToRender } from '../../drivers/web/web-render.ts';
import { DaemonError, FieldErrors } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import { hostingRepository } from './hosting.repository.ts';
import type { HostingSettings } from './hosting-settings.ts';
import type { ServiceUsers } from './service-users.ts';

/** What `web sync` found of one service: its drift, and whether it was repaired. */
export interface WebDrift {
  serviceId: number;
  /** The domain, or null for a live configuration whose service the panel no longer has. */
  domain: string | null;
  drift: 'missing' | 'changed' | 'extra';
  repaired: boolean;
  /** Why the repair failed: the web server's own message (nginx -t, the reload), for the operator. */
  error?: string;
}

/** Runs one repair; a failure is reported with its reason rather than stopping the others. */
async function repair(work: () => Promise<void>): Promise<Pick<WebDrift, 'repaired' | 'error'>> {
  try {
    await work();
    return { repaired: true };
  } catch (error) {
    const detail = error instanceof DaemonError ? error.detail : '';
    return { repaired: false, error: detail || (error as Error).message };
  }
}

/** The site folders a change creates and checks: those it names, or every site's. */
export type FolderPreparation = readonly string[] | 'all';

/** What a change touches: the site folders it brings in, and the hosts whose rows it changes (see HostingChanges.change). */
export interface ChangeScope {
  prepare?: FolderPreparation;
  hosts?: readonly string[];
}

/** A hosting service the actor may use, with the permission levels the answers carry. */
export type HostedService = { id: number; domain: string; levels: HostingServiceDto['permissions'] };

/** Driver field names (`sites.0.folder`…) → the form's fields. */
function formField(field: string): string {
  if (/\.folder$/.test(field)) return 'folder';
  if (/\.ssl\./.test(field)) return 'cert';
  if (/\.subdomain$/.test(field)) return 'subDomain';
  if (/\.path$/.test(field)) return 'recurso';
  if (/\.url$/.test(field)) return 'urlRedir';
  if (/\.type$/.test(field)) return 'redirType';
  if (/\.frame\.title$/.test(field)) return 'iframeTitle';
  if (/\.frame\.description$/.test(field)) return 'iframeDescription';
  if (/\.frame\.keywords$/.test(field)) return 'iframeKeywords';
  return field;
}

/**
 * How every service of the web side (overview, site builder, redirections, sites) reads and
 * changes a hosting service. The panel database is the source of truth; every change is one
 * transaction that ends by giving the web driver the whole service as the database now has it.
 * If nginx or PHP-FPM refuse, the transaction rolls back and the previous configuration stays live.
 */
export class HostingChanges {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly homes: ServiceHomes,
    private readonly driver: WebDriver,
    private readonly keys: SecretBox,
    private readonly settings: Pick<HostingSettings, 'phpVersions' | 'defaultPhpVersion'>,
    private readonly now: () => number,
    /** Each service's own system user, whose PHP pool and folders it gets (none: the web server's user). */
    private readonly users?: ServiceUsers,
  ) {}

  /** Whether sites reach a real web server (the demo seed leaves that alone). */
  get live(): boolean {
    return this.driver.live;
  }

  async service(actor: Actor, id: number, key: PermissionKey, need: 'visible' | 'action'): Promise<HostedService> {
    const resource = await this.permissions.authorize(actor, id, key, need);
    return { id, domain: resource.referencePunycode, levels: resource.levels };
  }

  /**
   * The settings row and the main site exist from the first call on (like a DNS zone). Only
   * rows: the web server gets them with the first change. Answers whether this call made them.
   */
  async ensure(db: Db, serviceId: number): Promise<boolean> {
    if (await hostingRepository.settings(db, serviceId)) return false;
    return db.transaction().execute(async (trx) => {
      // Only the call whose row went in adds the main site (a concurrent first call waits, then skips).
      const [inserted] = await hostingRepository.insertSettings(trx, serviceId, this.now());
      if (!inserted || Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      await hostingRepository.insertSite(trx, {
        service_id: serviceId,
        subdomain: '',
        folder: '',
        ssl_active: 0,
        cert_pem: '',
        cert_chain_pem: '',
        key_sealed: '',
        eliminable: 0,
        created_at: this.now(),
      });
      return true;
    });
  }

  /**
   * The service as the database has it (with `hosts`, the sites and redirections of those
   * subdomains only), in the driver's terms. The sites' folders in `prepare`
   * are created and checked against escapes ('all': every site's, as a sync or a first apply
   * needs; a dry run passes none and leaves the disk alone).
   */
  private async model(
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
      // A folder is made by the service's worker, as its user, never through a link.
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
      ...(pool ? { pool } : {}),
      parking: settings?.parking === 1,
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

  /**
   * One change: the rows (`work`) and the driver's apply in one transaction. The settings row is
   * touched first, so on PostgreSQL changes of one service take turns and each applies what the
   * previous one committed. `scope.prepare` names the site folders the change brings in (a new site's, a
   * moved one's): only those are created and checked, so a change costs what it touches rather
   * than a disk check per site of the service (every folder was checked when it came in, and
   * `web sync` checks them all again). A service's first change prepares them all.
   *
   * `scope.hosts` names the subdomains whose sites or redirections the change touches ('' the main
   * domain): only their rows are read and their files rendered, the driver keeping the others as
   * it last applied them; without it, or when the driver cannot (see WebDriver.applyHosts), the
   * whole service is applied.
   */
  async change<T>(
    service: { id: number; domain: string },
    work: (trx: Db) => Promise<T>,
    scope: ChangeScope = {},
  ): Promise<T> {
    const { hosts } = scope;
    let prepare = scope.prepare ?? 'all';
    if (await this.ensure(this.db, service.id)) prepare = 'all';
    let applied = false;
    try {
      return await this.db.transaction().execute(async (trx) => {
        await hostingRepository.updateSettings(trx, service.id, { updated_at: this.now() });
        const result = await work(trx);
        try {
          await this.applyChange(trx, service, prepare, hosts);
        } catch (error) {
          if (error instanceof FieldErrors) {
            throw new FieldErrors(error.fields.map((field) => ({ ...field, field: formField(field.field) })));
          }
          throw error;
        }
        applied = true;
        return result;
      });
    } catch (error) {
      // The commit failed after the web server took the change: give it back what is committed.
      if (applied) await this.driver.apply(await this.model(this.db, service, [])).catch(() => undefined);
      throw error;
    }
  }

  /** Gives the driver the change: the touched hosts where it can take them, else the whole service. */
  private async applyChange(
    trx: Db,
    service: { id: number; domain: string },
    prepare: FolderPreparation,
    hosts: readonly string[] | undefined,
  ): Promise<void> {
    // A change that prepares every folder is a service's first: the driver has no hosts to keep yet.
    if (hosts && prepare !== 'all') {
      const touched = hostsToRender(hosts);
      const model = await this.model(trx, service, prepare, touched);
      if (await this.driver.applyHosts({ ...model, hosts: touched })) return;
    }
    await this.driver.apply(await this.model(trx, service, prepare));
  }

  /**
   * Makes the web server serve every hosting service exactly as the database has it: a service
   * with no live configuration (a restore, a switch from the embedded driver, a seed) or another
   * one is applied again; a live configuration of a service the panel no longer has is removed.
   * `dryRun` only reports. One service that cannot be applied does not stop the others.
   */
  async sync(options: { dryRun: boolean }): Promise<WebDrift[]> {
    const report: WebDrift[] = [];
    const services = await hostingRepository.allServices(this.db);
    for (const service of services) {
      if (!options.dryRun) await this.ensure(this.db, service.id);
      const model = await this.model(this.db, service, options.dryRun ? [] : 'all');
      const drift = await this.driver.drift(model);
      if (!drift) continue;
      const result = options.dryRun ? { repaired: false } : await repair(() => this.driver.apply(model));
      report.push({ serviceId: service.id, domain: service.domain, drift, ...result });
    }
    const known = new Set(services.map((service) => service.id));
    for (const serviceId of await this.driver.liveServices()) {
      if (known.has(serviceId)) continue;
      const result = options.dryRun ? { repaired: false } : await repair(() => this.driver.remove(serviceId));
      report.push({ serviceId, domain: null, drift: 'extra', ...result });
    }
    return report;
  }

  /** Creates the rows of a service and makes the web server serve them (the demo seed). */
  async provision(service: { id: number; domain: string }): Promise<void> {
    await this.change(service, async () => undefined);
  }
}
