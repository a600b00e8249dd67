import type { Language } from '@panel247/contract/constants';

/** A package's text: one for every language, or one per language (es required, the others fall back to it). */
export type PackageText = string | { es: string; en?: string | undefined; ca?: string | undefined };

/** A package's text in the user's language (Spanish when the package has none in it). */
export function pick(text: PackageText, language: Language): string {
  return typeof text === 'string' ? text : (text[language] ?? text.es);
}
