import { hasControlCharacters } from '@panel247/contract/text-rules';
import type { Db } from '../../db/database.ts';
import { ConflictError, FieldErrors } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { hostingRepository } from './hosting.repository.ts';
import type { HostingChanges } from './hosting-changes.ts';
import { hostOf } from './hosting-input.ts';
import type { HostingSettings } from './hosting-settings.ts';
import { signSiteBuilderToken } from './site-builder-token.ts';

/** Sign-on into the brand's site builder for one site of a hosting service, and the site it last opened. */
export class SiteBuilderService {
  constructor(
    private readonly db: Db,
    private readonly changes: HostingChanges,
    private readonly brands: BrandService,
    private readonly settings: Pick<HostingSettings, 'siteBuilderUrl' | 'siteBuilderKey'>,
    private readonly now: () => number,
  ) {}

  /** The site the builder edits ('*' the main domain), or null before it was first opened. */
  async selectedSite(actor: Actor, id: number): Promise<string | null> {
    await this.changes.service(actor, id, 'service', 'visible');
    const chosen = (await hostingRepository.settings(this.db, id))?.builder_site ?? null;
    return chosen === null ? null : chosen === '' ? '*' : chosen;
  }

  /**
   * A link into the brand's site builder for one site of the service ('*': the main domain),
   * carrying a short-lived HMAC-signed token (see site-builder-token.ts); the site becomes the
   * builder's selected one.
   */
  async login(actor: Actor, id: number, subdomain: string, language: string): Promise<string> {
    const service = await this.changes.service(actor, id, 'service', 'action');
    if (hasControlCharacters(subdomain)) throw FieldErrors.one('subdomain', 'validation.control_chars');
    const label = subdomain.trim() === '*' ? '' : subdomain.trim().toLowerCase();
    await this.changes.ensure(this.db, id);
    const site = await hostingRepository.siteBySubdomain(this.db, id, label);
    if (!site) throw FieldErrors.one('subdomain', 'hosting.error.builder_site');
    const key = this.settings.siteBuilderKey;
    if (!key) throw new ConflictError('hosting.error.builder_off');
    await hostingRepository.updateSettings(this.db, id, { builder_site: label, updated_at: this.now() });
    const token = signSiteBuilderToken(
      {
        service: id,
        host: hostOf(label, service.domain),
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
}
