import {
  DEFAULT_LANGUAGE,
  LANGUAGE_COOKIE,
  LANGUAGE_COOKIE_DAYS,
  LANGUAGES,
  type Language,
} from '@panel247/contract/constants';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function readLanguageCookie(cookie: string = document.cookie): Language | null {
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE) {
      const value = decodeURIComponent(rest.join('='));
      return isLanguage(value) ? value : null;
    }
  }
  return null;
}

/** The `_lang` cookie lives one day (spec section 9). */
export function writeLanguageCookie(language: Language): void {
  const maxAge = LANGUAGE_COOKIE_DAYS * 24 * 60 * 60;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the panel supports
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure}`;
}

/** The first supported language of the browser, by its preference order. */
export function browserLanguage(
  languages: readonly string[] = navigator.languages ?? [navigator.language],
): Language | null {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return null;
}

/** A language forced by the address (`?lang=en`), e.g. a link from the provider's site. */
export function forcedLanguageFromUrl(search: string = location.search): Language | null {
  const value = new URLSearchParams(search).get('lang');
  return isLanguage(value) ? value : null;
}

/** Cookie first, then the browser's language if supported, then Spanish. */
export function initialLanguage(): Language {
  return forcedLanguageFromUrl() ?? readLanguageCookie() ?? browserLanguage() ?? DEFAULT_LANGUAGE;
}
