import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, type Language } from '@panel247/contract/constants';
import type { FastifyRequest } from 'fastify';

function exactLanguage(value: unknown): Language | undefined {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
    ? (value as Language)
    : undefined;
}

/** A browser's language tag by its base ('en-GB' is English). */
function baseLanguage(tag: string): Language | undefined {
  return exactLanguage(tag.trim().toLowerCase().split('-')[0]);
}

/** The supported languages of an Accept-Language header, most preferred first (q=0 is "not this"). */
export function acceptedLanguages(header: string | undefined): Language[] {
  const ranked = (header ?? '')
    .split(',')
    .map((entry, index) => {
      const [tag, ...params] = entry.split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { language: baseLanguage(tag ?? ''), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.language && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.language as Language);
}

/**
 * The language a page opens in, decided as the web app decides it (apps/web/src/lib/language.ts):
 * `?lang=` in the address, else the `_lang` cookie, else the browser's first supported language
 * (its Accept-Language), else Spanish. The server draws the page's first frame in it.
 */
export function documentLanguage(request: FastifyRequest): Language {
  return (
    forcedLanguage(request) ??
    exactLanguage(request.cookies?.[LANGUAGE_COOKIE]) ??
    acceptedLanguages(request.headers['accept-language'])[0] ??
    DEFAULT_LANGUAGE
  );
}

/** The language `?lang=` forces on the page (the app then sends it with every call), if any. */
export function forcedLanguage(request: FastifyRequest): Language | undefined {
  return exactLanguage((request.query as { lang?: unknown } | undefined)?.lang);
}
