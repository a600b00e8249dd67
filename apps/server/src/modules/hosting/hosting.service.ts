import { X509Certificate } from 'node:crypto';
import type { PermissionKey } from '@panel247/contract/constants';
import type {
  HostingService as HostingServiceDto,
  Redirection,
  RedirectType,
  Subdomain,
} from '@panel247/contract/hosting';
import { parseCertificateBundle } from '../../crypto/certificate-bundle.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { DdbbDriver } from '../../drivers/ddbb/ddbb.driver.ts';
import type { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import type { WebDriver, WebService } from '../../drivers/web/web.driver.ts';
import { ConflictError, type FieldError, FieldErrors, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { BrandService } from '../brand/brand.service.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import { diskUsage } from './disk-usage.ts';
import { readErrorLog } from './error-log.ts';
import { hostingRepository } from './hosting.repository.ts';
import { signSiteBuilderToken } from './site-builder-token.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** One or more RFC 1123 labels in front of the service's domain. */
const SUBDOMAIN = new RegExp(`^(?=.{1,190}$)${LABEL}(?:\\.${LABEL})*$`);
const PATH_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._~-]{1,64}$/;
/** http(s), a host, an optional port, then path/query/fragment characters without quotes, $, ;, braces or spaces. */
const URL_TEXT = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?(?:[/?#][A-Za-z0-9._~:/?#@!&()*+,=%-]*)?$/;
const MIB = 1024 * 1024;

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

type SiteRow = NonNullable<Awaited<ReturnType<typeof hostingRepository.site>>>;
type RedirectionRow = NonNullable<Awaited<ReturnType<typeof hostingRepository.redirection>>>;
type Service = { id: number; domain: string; levels: HostingServiceDto['permissions'] };

function compareVersions(a: string, b: string): number {
  const [aMajor, aMinor] = a.split('.').map(Number) as [number, number];
  const [bMajor, bMinor] = b.split('.').map(Number) as [number, number];
  return aMajor - bMajor || aMinor - bMinor;
}

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
 * The web side of a hosting service: PHP version, parking, sites (with SSL) and redirections.
 * The panel database is the source of truth; every change is one transaction that ends by giving
 * the web driver the whole service as the database now has it. If nginx or PHP-FPM refuse, the
 * transaction rolls back and the previous configuration stays live.
 */
export class HostingService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly brands: BrandService,
    private readonly homes: ServiceHomes,
    private readonly driver: WebDriver,
    private readonly databases: DdbbDriver,
    private readonly keys: SecretBox,
    private readonly settings: HostingSettings,
    private readonly now: () => number,
  ) {}

  /** Whether sites reach a real web server (the demo seed leaves that alone). */
  get live(): boolean {
    return this.driver.live;
  }

  close(): Promise<void> {
    return this.databases.close();
  }

  private async service(actor: Actor, id: number, key: PermissionKey, need: 'visible' | 'action'): Promise<Service> {
    const resource = await this.permissions.authorize(actor, id, key, need);
    return { id, domain: resource.referencePunycode, levels: resource.levels };
  }

  /**
   * The settings row and the main site exist from the first call on (like a DNS zone). Only
   * rows: the web server gets them with the first change.
   */
  private async ensure(db: Db, serviceId: number): Promise<void> {
    if (await hostingRepository.settings(db, serviceId)) return;
    await db.transaction().execute(async (trx) => {
      // Only the call whose row went in adds the main site (a concurrent first call waits, then skips).
      const [inserted] = await hostingRepository.insertSettings(trx, serviceId, this.now());
      if (!inserted || Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
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
    });
  }

  /** The service as the database has it, in the driver's terms. */
  private async model(db: Db, service: { id: number; domain: string }): Promise<WebService> {
    const settings = await hostingRepository.settings(db, service.id);
    const sites = await hostingRepository.sites(db, service.id);
    const redirections = await hostingRepository.redirections(db, service.id);
    // A version the operator no longer runs falls back to the default rather than blocking every change.
    const chosen = settings?.php_version ?? '';
    const php = this.settings.phpVersions.includes(chosen) ? chosen : this.settings.defaultPhpVersion;
    const webSites: WebService['sites'] = [];
    for (const site of sites) {
      // Each folder is created (owned by the web user) and checked against symlink escapes.
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
   * previous one committed.
   */
  private async change<T>(service: { id: number; domain: string }, work: (trx: Db) => Promise<T>): Promise<T> {
    await this.ensure(this.db, service.id);
    let applied = false;
    try {
      return await this.db.transaction().execute(async (trx) => {
        await hostingRepository.updateSettings(trx, service.id, { updated_at: this.now() });
        const result = await work(trx);
        const model = await this.model(trx, service);
        try {
          await this.driver.apply(model);
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
      if (applied) await this.driver.apply(await this.model(this.db, service)).catch(() => undefined);
      throw error;
    }
  }

  // ---- the service ------------------------------------------------------------------------

  async get(actor: Actor, id: number): Promise<HostingServiceDto> {
    const service = await this.service(actor, id, 'service', 'visible');
    return this.toServiceDto(service);
  }

  private async toServiceDto(service: Service): Promise<HostingServiceDto> {
    await this.ensure(this.db, service.id);
    const settings = await hostingRepository.settings(this.db, service.id);
    const names = await hostingRepository.databaseNames(this.db, service.id);
    let databaseBytes = 0;
    try {
      for (const size of (await this.databases.usage(names)).values()) databaseBytes += size;
    } catch {
      // Shown, not relied on: an unreachable database server leaves the overview answering.
    }
    const versions = [...this.settings.phpVersions].sort(compareVersions);
    return {
      id: service.id,
      frontendDbID: service.id,
      usage: {
        spaceWeb: { used: await diskUsage(this.homes.home(service.domain)), limit: this.settings.webSpaceMb * MIB },
        // Traffic is not metered yet.
        traffic: { used: 0, limit: this.settings.trafficMb * MIB },
        BBDD: { used: names.length, limit: this.settings.maxDatabases },
        spaceBbdd: { used: databaseBytes, limit: this.settings.databaseSpaceMb * MIB },
      },
      defaultPHPVersion: this.settings.defaultPhpVersion,
      phpversion: settings?.php_version || 'default',
      phpminversion: versions[0] ?? this.settings.defaultPhpVersion,
      phpVersions: versions,
      parkingActive: settings?.parking === 1,
      permissions: service.levels,
    };
  }

  async setPhpVersion(actor: Actor, id: number, phpVersion: string): Promise<HostingServiceDto> {
    const service = await this.service(actor, id, 'service', 'action');
    const version = phpVersion.trim();
    if (version !== 'default' && !this.settings.phpVersions.includes(version)) {
      throw FieldErrors.one('phpVersion', 'web.error.php_version');
    }
    await this.change(service, (trx) =>
      hostingRepository.updateSettings(trx, id, {
        php_version: version === 'default' ? '' : version,
        updated_at: this.now(),
      }),
    );
    return this.toServiceDto(service);
  }

  async setParking(actor: Actor, id: number, on: boolean): Promise<HostingServiceDto> {
    const service = await this.service(actor, id, 'service_parking', 'action');
    await this.change(service, (trx) =>
      hostingRepository.updateSettings(trx, id, { parking: on ? 1 : 0, updated_at: this.now() }),
    );
    return this.toServiceDto(service);
  }

  /** The tail of the service's nginx and PHP error logs; the files come from the id, never from input. */
  async errorLog(actor: Actor, id: number) {
    await this.service(actor, id, 'service', 'visible');
    return readErrorLog(this.driver.errorLogFiles(id));
  }

  // ---- site builder -----------------------------------------------------------------------

  /** The site the builder edits ('*' the main domain), or null before it was first opened. */
  async builderSite(actor: Actor, id: number): Promise<string | null> {
    await this.service(actor, id, 'service', 'visible');
    const chosen = (await hostingRepository.settings(this.db, id))?.builder_site ?? null;
    return chosen === null ? null : chosen === '' ? '*' : chosen;
  }

  /**
   * A link into the brand's site builder for one site of the service ('*': the main domain),
   * carrying a short-lived HMAC-signed token (see site-builder-token.ts); the site becomes the
   * builder's selected one.
   */
  async builderLogin(actor: Actor, id: number, subdomain: string, language: string): Promise<string> {
    const service = await this.service(actor, id, 'service', 'action');
    if (CONTROL.test(subdomain)) throw FieldErrors.one('subdomain', 'validation.control_chars');
    const label = subdomain.trim() === '*' ? '' : subdomain.trim().toLowerCase();
    await this.ensure(this.db, id);
    const site = await hostingRepository.siteBySubdomain(this.db, id, label);
    if (!site) throw FieldErrors.one('subdomain', 'hosting.error.builder_site');
    const key = this.settings.siteBuilderKey;
    if (!key) throw new ConflictError('hosting.error.builder_off');
    await hostingRepository.updateSettings(this.db, id, { builder_site: label, updated_at: this.now() });
    const token = signSiteBuilderToken(
      {
        service: id,
        host: label === '' ? service.domain : `${label}.${service.domain}`,
        folder: site.folder,
        lang: language,
      },
      key,
      this.now(),
    );
    const brand = await this.brands.byId(actor.brandId);
    const base = brand.builderHost ? `https://${brand.builderHost}/` : this.settings.siteBuilderUrl;
    return `${base}${base.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
  }

  // ---- input checks -----------------------------------------------------------------------

  private subdomain(value: string, field: string, errors: FieldError[]): string {
    const label = value.trim().toLowerCase();
    if (CONTROL.test(value)) errors.push({ field, messageKey: 'validation.control_chars' });
    else if (label !== '' && !SUBDOMAIN.test(label)) errors.push({ field, messageKey: 'hosting.error.subdomain' });
    return label;
  }

  private folder(value: string, errors: FieldError[]): string {
    try {
      if (CONTROL.test(value)) throw FieldErrors.one('folder', 'validation.control_chars');
      return this.homes.normalise(value.trim(), 'folder');
    } catch (error) {
      if (!(error instanceof FieldErrors)) throw error;
      errors.push(...error.fields);
      return '';
    }
  }

  /** `recurso` as typed ('', 'shop', '/shop/') → '/' or '/shop'. */
  private path(value: string, errors: FieldError[]): string {
    if (CONTROL.test(value)) {
      errors.push({ field: 'recurso', messageKey: 'validation.control_chars' });
      return '/';
    }
    const trimmed = value.trim().replace(/^\/+|\/+$/g, '');
    if (trimmed === '') return '/';
    const segments = trimmed.split('/');
    if (segments.length > 16 || !segments.every((segment) => PATH_SEGMENT.test(segment))) {
      errors.push({ field: 'recurso', messageKey: 'hosting.error.path' });
    }
    return `/${segments.join('/')}`;
  }

  private redirectionFields(
    params: {
      urlRedir: string;
      redirType: RedirectType;
      iframeTitle: string;
      iframeDescription: string;
      iframeKeywords: string;
    },
    errors: FieldError[],
  ) {
    const url = params.urlRedir.trim();
    if (CONTROL.test(params.urlRedir)) errors.push({ field: 'urlRedir', messageKey: 'validation.control_chars' });
    else if (url === '') errors.push({ field: 'urlRedir', messageKey: 'validation.required' });
    else if (!URL_TEXT.test(url) || !validUrl(url)) errors.push({ field: 'urlRedir', messageKey: 'hosting.error.url' });
    const frame = params.redirType === 'frame';
    const texts = { iframeTitle: '', iframeDescription: '', iframeKeywords: '' };
    for (const field of ['iframeTitle', 'iframeDescription', 'iframeKeywords'] as const) {
      if (CONTROL.test(params[field])) errors.push({ field, messageKey: 'validation.control_chars' });
      else if (frame) texts[field] = params[field].trim();
    }
    return {
      url,
      type: params.redirType,
      iframe_title: texts.iframeTitle,
      iframe_description: texts.iframeDescription,
      iframe_keywords: texts.iframeKeywords,
    };
  }

  /** The certificate fields, checked and made ready to store; null keeps what the site has. */
  private certificate(
    params: { cert: string; certkey: string; certchain: string },
    host: string,
  ): { cert_pem: string; cert_chain_pem: string; key_sealed: string } | null {
    if (params.cert.trim() === '' && params.certkey.trim() === '' && params.certchain.trim() === '') return null;
    const errors: FieldError[] = [];
    if (params.cert.trim() === '') errors.push({ field: 'cert', messageKey: 'validation.required' });
    if (params.certkey.trim() === '') errors.push({ field: 'certkey', messageKey: 'validation.required' });
    if (errors.length > 0) throw new FieldErrors(errors);
    const bundle = parseCertificateBundle(
      { cert: params.cert, key: params.certkey, chain: params.certchain },
      new Date(this.now() * 1000),
    );
    if (!bundle.covers(host)) throw FieldErrors.one('cert', 'hosting.error.cert_host', { host });
    return { cert_pem: bundle.certPem, cert_chain_pem: bundle.chainPem, key_sealed: this.keys.seal(bundle.keyPem) };
  }

  // ---- redirections -----------------------------------------------------------------------

  private toRedirection(row: RedirectionRow, domain: string): Redirection {
    const host = row.subdomain === '' ? domain : `${row.subdomain}.${domain}`;
    return {
      id: row.id,
      origin: row.path === '/' ? host : `${host}${row.path}`,
      url: row.url,
      redirType: row.type === 'frame' ? 'frame' : row.type === '302' ? '302' : '301',
      recurso: row.path.replace(/^\//, ''),
      subdominio: row.subdomain,
      iframeTitle: row.iframe_title,
      iframeDescription: row.iframe_description,
      iframeKeywords: row.iframe_keywords,
      eliminable: row.eliminable === 1,
    };
  }

  async listRedirections(actor: Actor, id: number): Promise<Redirection[]> {
    const service = await this.service(actor, id, 'service_redirects', 'visible');
    return (await hostingRepository.redirections(this.db, id)).map((row) => this.toRedirection(row, service.domain));
  }

  async getRedirection(actor: Actor, id: number, rid: number): Promise<Redirection> {
    const service = await this.service(actor, id, 'service_redirects', 'visible');
    const row = await hostingRepository.redirection(this.db, id, rid);
    if (!row) throw new NotFoundError();
    return this.toRedirection(row, service.domain);
  }

  async createRedirection(
    actor: Actor,
    id: number,
    params: {
      subDomain: string;
      recurso: string;
      urlRedir: string;
      redirType: RedirectType;
      iframeTitle: string;
      iframeDescription: string;
      iframeKeywords: string;
    },
  ): Promise<Redirection> {
    const service = await this.service(actor, id, 'service_redirects', 'action');
    const errors: FieldError[] = [];
    const subdomain = this.subdomain(params.subDomain, 'subDomain', errors);
    const path = this.path(params.recurso, errors);
    const fields = this.redirectionFields(params, errors);
    if (errors.length > 0) throw new FieldErrors(errors);
    const rid = await this.change(service, async (trx) => {
      // Checked under the service's row lock, so two creates of one path cannot both pass.
      if (await hostingRepository.redirectionAt(trx, id, subdomain, path)) {
        throw FieldErrors.one('recurso', 'hosting.error.redirection_taken');
      }
      const row = await hostingRepository.insertRedirection(trx, {
        service_id: id,
        subdomain,
        path,
        ...fields,
        created_at: this.now(),
      });
      return row.id;
    });
    return this.getRedirection(actor, id, rid);
  }

  async saveRedirection(
    actor: Actor,
    id: number,
    rid: number,
    params: {
      urlRedir: string;
      redirType: RedirectType;
      iframeTitle: string;
      iframeDescription: string;
      iframeKeywords: string;
    },
  ): Promise<Redirection> {
    const service = await this.service(actor, id, 'service_redirects', 'action');
    if (!(await hostingRepository.redirection(this.db, id, rid))) throw new NotFoundError();
    const errors: FieldError[] = [];
    const fields = this.redirectionFields(params, errors);
    if (errors.length > 0) throw new FieldErrors(errors);
    await this.change(service, (trx) => hostingRepository.updateRedirection(trx, id, rid, fields));
    return this.getRedirection(actor, id, rid);
  }

  async removeRedirection(actor: Actor, id: number, rid: number): Promise<void> {
    const service = await this.service(actor, id, 'service_redirects', 'action');
    const row = await hostingRepository.redirection(this.db, id, rid);
    if (!row) throw new NotFoundError();
    if (row.eliminable !== 1) throw new ForbiddenError('mail.error.not_eliminable');
    await this.change(service, (trx) => hostingRepository.deleteRedirection(trx, id, rid));
  }

  // ---- sites ------------------------------------------------------------------------------

  private toSubdomain(row: SiteRow, domain: string): Subdomain {
    let info: Subdomain['ssl']['info'] = null;
    if (row.cert_pem) {
      try {
        // For display only: the stored certificate was checked when it was uploaded.
        const certificate = new X509Certificate(row.cert_pem);
        const names = (certificate.subjectAltName ?? '')
          .split(', ')
          .filter((entry) => entry.startsWith('DNS:'))
          .map((entry) => entry.slice(4));
        info = {
          names,
          issuer: certificate.issuer,
          validFrom: Math.floor(new Date(certificate.validFrom).getTime() / 1000),
          validTo: Math.floor(new Date(certificate.validTo).getTime() / 1000),
          fingerprint: certificate.fingerprint256,
          keyInstalled: row.key_sealed !== '',
        };
      } catch {
        info = null;
      }
    }
    return {
      id: row.id,
      subdominio: row.subdomain,
      referencePunycode: domain,
      directorio: row.folder,
      eliminable: row.eliminable === 1,
      ssl: {
        enabled: row.ssl_active === 1,
        cert: { cert: row.cert_pem, key: '', ca: row.cert_chain_pem },
        info,
      },
    };
  }

  async listSubdomains(actor: Actor, id: number): Promise<Subdomain[]> {
    const service = await this.service(actor, id, 'service_subdomains', 'visible');
    await this.ensure(this.db, id);
    return (await hostingRepository.sites(this.db, id)).map((row) => this.toSubdomain(row, service.domain));
  }

  async getSubdomain(actor: Actor, id: number, sid: number): Promise<Subdomain> {
    const service = await this.service(actor, id, 'service_subdomains', 'visible');
    const row = await hostingRepository.site(this.db, id, sid);
    if (!row) throw new NotFoundError();
    return this.toSubdomain(row, service.domain);
  }

  async createSubdomain(
    actor: Actor,
    id: number,
    params: {
      subDomain: string;
      folder: string;
      SSLActive: '0' | '1';
      cert: string;
      certkey: string;
      certchain: string;
    },
  ): Promise<Subdomain> {
    const service = await this.service(actor, id, 'service_subdomains', 'action');
    const errors: FieldError[] = [];
    const subdomain = this.subdomain(params.subDomain, 'subDomain', errors);
    if (subdomain === '' && errors.length === 0) errors.push({ field: 'subDomain', messageKey: 'validation.required' });
    const folder = this.folder(params.folder, errors);
    if (errors.length > 0) throw new FieldErrors(errors);
    const ssl = params.SSLActive === '1';
    const certificate = this.certificate(params, `${subdomain}.${service.domain}`);
    if (ssl && !certificate) throw FieldErrors.one('cert', 'validation.required');
    const sid = await this.change(service, async (trx) => {
      // Checked under the service's row lock, so two creates of one subdomain cannot both pass.
      if (await hostingRepository.siteBySubdomain(trx, id, subdomain)) {
        throw FieldErrors.one('subDomain', 'hosting.error.subdomain_taken');
      }
      const row = await hostingRepository.insertSite(trx, {
        service_id: id,
        subdomain,
        folder,
        ssl_active: ssl ? 1 : 0,
        cert_pem: certificate?.cert_pem ?? '',
        cert_chain_pem: certificate?.cert_chain_pem ?? '',
        key_sealed: certificate?.key_sealed ?? '',
        eliminable: 1,
        created_at: this.now(),
      });
      return row.id;
    });
    return this.getSubdomain(actor, id, sid);
  }

  async saveSubdomain(
    actor: Actor,
    id: number,
    sid: number,
    params: { folder: string; SSLActive: '0' | '1'; cert: string; certkey: string; certchain: string },
  ): Promise<Subdomain> {
    const service = await this.service(actor, id, 'service_subdomains', 'action');
    const row = await hostingRepository.site(this.db, id, sid);
    if (!row) throw new NotFoundError();
    const errors: FieldError[] = [];
    const folder = this.folder(params.folder, errors);
    if (errors.length > 0) throw new FieldErrors(errors);
    const ssl = params.SSLActive === '1';
    const host = row.subdomain === '' ? service.domain : `${row.subdomain}.${service.domain}`;
    const certificate = this.certificate(params, host);
    // Turning SSL on without a new certificate keeps the one the site has.
    if (ssl && !certificate && !row.cert_pem) throw FieldErrors.one('cert', 'validation.required');
    await this.change(service, (trx) =>
      hostingRepository.updateSite(trx, id, sid, { folder, ssl_active: ssl ? 1 : 0, ...(certificate ?? {}) }),
    );
    return this.getSubdomain(actor, id, sid);
  }

  async removeSubdomain(actor: Actor, id: number, sid: number): Promise<void> {
    const service = await this.service(actor, id, 'service_subdomains', 'action');
    const row = await hostingRepository.site(this.db, id, sid);
    if (!row) throw new NotFoundError();
    if (row.eliminable !== 1) throw new ForbiddenError('mail.error.not_eliminable');
    // The files stay: they belong to the service's home, not to the site.
    await this.change(service, (trx) => hostingRepository.deleteSite(trx, id, sid));
  }

  /** Creates the rows of a service and makes the web server serve them (the demo seed). */
  async provision(service: { id: number; domain: string }): Promise<void> {
    await this.change(service, async () => undefined);
  }
}

function validUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username;
  } catch {
    return false;
  }
}
