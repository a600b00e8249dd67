import type { ConsoleBrand } from '@panel247/contract/console';
import type { Language } from '@panel247/contract/constants';
import type { BrandPayload, LegalPayload } from '../api/save-brand';

/** The brand's form: its fields as typed, the switches as booleans. */
export type BrandValues = Omit<ConsoleBrand, 'slug' | 'isDefault' | 'legal'>;

export function brandValues(brand: ConsoleBrand): BrandValues {
  const { slug: _slug, isDefault: _isDefault, legal: _legal, ...values } = brand;
  return values;
}

/** What the save call gets: the texts trimmed, the switches '1' or '0'. */
export function brandPayload(values: BrandValues): BrandPayload {
  return {
    company: values.company.trim(),
    color: values.color,
    logo: values.logo.trim(),
    logoMini: values.logoMini.trim(),
    allowColorChange: values.allowColorChange ? '1' : '0',
    defaultLanguage: values.defaultLanguage,
    contactEmail: values.contactEmail.trim(),
    require2fa: values.require2fa ? '1' : '0',
  };
}

/** One language's privacy policy as the brand has it, or empty (the panel's default text). */
export function legalValues(brand: ConsoleBrand, language: Language): LegalPayload {
  const text = brand.legal.find((one) => one.language === language);
  return { language, title: text?.title ?? '', body: text?.body ?? '', redirectTo: text?.redirectTo ?? '' };
}

/**
 * Whether a typed logo address is worth drawing as a preview: a path on the panel's host or an
 * http(s) URL, as the server accepts them (anything else is refused there, with the field's error).
 */
export function previewable(src: string): boolean {
  const value = src.trim();
  if (!value || /[\s"'<>\\`]/.test(value)) return false;
  if (/^\/(?!\/)/.test(value)) return true;
  return /^https?:\/\/[^/]/i.test(value);
}
