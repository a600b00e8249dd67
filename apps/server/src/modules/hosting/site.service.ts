import { X509Certificate } from 'node:crypto';
import type { Subdomain, SubdomainListParams } from '@panel247/contract/hosting';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import { parseCertificateBundle } from '../../crypto/certificate-bundle.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { listPageOf } from '../../db/list-query.ts';
import { normaliseServiceFolder } from '../../drivers/homes/service-homes.ts';
import { type FieldError, FieldErrors, ForbiddenError, NotFoundError } from '../../errors.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import type { Actor } from '../auth/actor.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { hostingRepository } from './hosting.repository.ts';
import type { HostingChanges } from './hosting-changes.ts';
import { checkSubdomain, hostOf } from './hosting-input.ts';

type SiteRow = NonNullable<Awaited<ReturnType<typeof hostingRepository.site>>>;

/** The sites of a hosting service (the main domain and subdomains), each a folder of the home, with SSL. */
export class SiteService {
  constructor(
    private readonly db: Db,
    private readonly changes: HostingChanges,
    private readonly keys: SecretBox,
    private readonly now: () => number,
  ) {}

  private folder(value: string, errors: FieldError[]): string {
    try {
      if (hasControlCharacters(value)) throw FieldErrors.one('folder', 'validation.control_chars');
      return normaliseServiceFolder(value.trim(), 'folder');
    } catch (error) {
      if (!(error instanceof FieldErrors)) throw error;
      errors.push(...error.fields);
      return '';
    }
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

  /** Every site (the spec's call), or one page of them when the call asks for it. */
  async list(actor: Actor, params: SubdomainListParams): Promise<{ subdomains: Subdomain[]; total?: number }> {
    const { id } = params;
    const service = await this.changes.service(actor, id, 'service_subdomains', 'visible');
    await this.changes.ensure(this.db, id);
    const page = listPageOf(params);
    const toDto = (row: SiteRow) => this.toSubdomain(row, service.domain);
    if (!page) return { subdomains: (await hostingRepository.sites(this.db, id)).map(toDto) };
    const { rows, total } = await hostingRepository.sitesPage(this.db, id, service.domain, page);
    return { subdomains: rows.map(toDto), total };
  }

  async get(actor: Actor, id: number, sid: number): Promise<Subdomain> {
    const service = await this.changes.service(actor, id, 'service_subdomains', 'visible');
    const row = await hostingRepository.site(this.db, id, sid);
    if (!row) throw new NotFoundError();
    return this.toSubdomain(row, service.domain);
  }

  async create(
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
    const service = await this.changes.service(actor, id, 'service_subdomains', 'action');
    const errors: FieldError[] = [];
    const subdomain = checkSubdomain(params.subDomain, 'subDomain', errors);
    if (subdomain === '' && errors.length === 0) errors.push({ field: 'subDomain', messageKey: 'validation.required' });
    const folder = this.folder(params.folder, errors);
    if (errors.length > 0) throw new FieldErrors(errors);
    const ssl = params.SSLActive === '1';
    const certificate = this.certificate(params, `${subdomain}.${service.domain}`);
    if (ssl && !certificate) throw FieldErrors.one('cert', 'validation.required');
    const sid = await this.changes.change(
      service,
      async (trx) => {
        // Checked under the service's row lock, so two creates of one subdomain cannot both pass.
        if (await hostingRepository.siteBySubdomain(trx, id, subdomain)) {
          throw FieldErrors.one('subDomain', 'hosting.error.subdomain_taken');
        }
        await planLimits.admit(trx, id, 'sites');
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
      },
      { prepare: [folder], hosts: [subdomain] },
    );
    return this.get(actor, id, sid);
  }

  async save(
    actor: Actor,
    id: number,
    sid: number,
    params: { folder: string; SSLActive: '0' | '1'; cert: string; certkey: string; certchain: string },
  ): Promise<Subdomain> {
    const service = await this.changes.service(actor, id, 'service_subdomains', 'action');
    const row = await hostingRepository.site(this.db, id, sid);
    if (!row) throw new NotFoundError();
    const errors: FieldError[] = [];
    const folder = this.folder(params.folder, errors);
    if (errors.length > 0) throw new FieldErrors(errors);
    const ssl = params.SSLActive === '1';
    const host = hostOf(row.subdomain, service.domain);
    const certificate = this.certificate(params, host);
    // Turning SSL on without a new certificate keeps the one the site has.
    if (ssl && !certificate && !row.cert_pem) throw FieldErrors.one('cert', 'validation.required');
    await this.changes.change(
      service,
      (trx) => hostingRepository.updateSite(trx, id, sid, { folder, ssl_active: ssl ? 1 : 0, ...(certificate ?? {}) }),
      { prepare: [folder], hosts: [row.subdomain] },
    );
    return this.get(actor, id, sid);
  }

  async remove(actor: Actor, id: number, sid: number): Promise<void> {
    const service = await this.changes.service(actor, id, 'service_subdomains', 'action');
    const row = await hostingRepository.site(this.db, id, sid);
    if (!row) throw new NotFoundError();
    if (row.eliminable !== 1) throw new ForbiddenError('hosting.error.not_eliminable');
    noteChangeDetail(actor.activity, { target: row.subdomain });
    // The files stay: they belong to the service's home, not to the site.
    await this.changes.change(service, (trx) => hostingRepository.deleteSite(trx, id, sid), {
      prepare: [],
      hosts: [row.subdomain],
    });
  }
}
