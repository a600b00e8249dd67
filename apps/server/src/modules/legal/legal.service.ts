import type { Language } from '@panel247/contract/constants';
import type { PrivacyPolicyData } from '@panel247/contract/legal';
import type { Db } from '../../db/database.ts';
import type { Brand } from '../brand/brand.service.ts';
import { DEFAULT_PRIVACY_POLICY } from './default-privacy-policy.ts';
import { legalRepository } from './legal.repository.ts';

/** The brand's privacy policy in the language asked, Catalan falling back to Spanish. */
export class LegalService {
  constructor(private readonly db: Db) {}

  async privacyPolicy(brand: Brand, language: Language): Promise<PrivacyPolicyData> {
    const candidates: Language[] = language === 'ca' ? ['ca', 'es'] : [language];
    const rows = await legalRepository.texts(this.db, brand.id, 'privacy', candidates);
    const row = candidates.map((lang) => rows.find((r) => r.language === lang)).find(Boolean);
    if (row) return { title: row.title, text: row.body, redirecTo: row.redirect_to };
    const fallback = DEFAULT_PRIVACY_POLICY[language];
    return { title: fallback.title, text: fallback.text.replaceAll('{company}', brand.company), redirecTo: '' };
  }

  /** The privacy policies the provider wrote for a brand, in these languages (none: the default text is shown). */
  storedPolicies(brandId: number, languages: Language[]) {
    return legalRepository.texts(this.db, brandId, 'privacy', languages);
  }

  /** The provider's own privacy policy for a brand and language (the CLI); `redirectTo` sends readers elsewhere. */
  async setPrivacyPolicy(brandId: number, language: string, title: string, body: string, redirectTo: string) {
    await legalRepository.upsert(this.db, {
      brand_id: brandId,
      kind: 'privacy',
      language,
      title,
      body,
      redirect_to: redirectTo,
    });
  }
}
