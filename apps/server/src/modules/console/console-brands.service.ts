import type { ConsoleBrand } from '@panel247/contract/console';
import { LANGUAGES, type Language, type ThemeColor } from '@panel247/contract/constants';
import { NotFoundError } from '../../errors.ts';
import type { AdminService } from '../admin/admin.service.ts';
import type { BrandService } from '../brand/brand.service.ts';
import type { LegalService } from '../legal/legal.service.ts';

/**
 * The brands as the console edits them: company, colour, logos, language, contact, whether
 * every user needs a second factor, and the privacy policy per language. The same changes as
 * `panel brand set` and `panel legal set`; this instance's brand cache forgets at once.
 */
export class ConsoleBrands {
  constructor(
    private readonly admin: Pick<AdminService, 'listBrands' | 'updateBrand' | 'setLegalText'>,
    private readonly brands: Pick<BrandService, 'forget'>,
    private readonly legal: Pick<LegalService, 'storedPolicies'>,
  ) {}

  async get(slug: string): Promise<ConsoleBrand> {
    const row = (await this.admin.listBrands()).find((brand) => brand.slug === slug);
    if (!row) throw new NotFoundError();
    const texts = await this.legal.storedPolicies(row.id, [...LANGUAGES]);
    return {
      slug: row.slug,
      company: row.company,
      color: row.color as ThemeColor,
      logo: row.logo,
      logoMini: row.logo_mini,
      allowColorChange: row.allow_color_change === 1,
      defaultLanguage: row.default_language as Language,
      contactEmail: row.contact_email,
      require2fa: row.require_2fa === 1,
      isDefault: row.is_default === 1,
      legal: texts.map((text) => ({
        language: text.language as Language,
        title: text.title,
        body: text.body,
        redirectTo: text.redirect_to,
      })),
    };
  }

  async save(slug: string, changes: Omit<ConsoleBrand, 'slug' | 'isDefault' | 'legal'>): Promise<ConsoleBrand> {
    await this.get(slug);
    await this.admin.updateBrand(slug, changes);
    this.brands.forget();
    return this.get(slug);
  }

  async saveLegal(
    slug: string,
    text: { language: Language; title: string; body: string; redirectTo: string },
  ): Promise<ConsoleBrand> {
    await this.get(slug);
    await this.admin.setLegalText(slug, text.language, text.title, text.body, text.redirectTo);
    return this.get(slug);
  }
}
