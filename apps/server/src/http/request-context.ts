import { LANGUAGE_COOKIE, LANGUAGES, type Language } from '@panel247/contract/constants';
import { replaceControlCharacters } from '@panel247/contract/text-rules';
import type { FastifyRequest } from 'fastify';

function asLanguage(value: unknown): Language | undefined {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
    ? (value as Language)
    : undefined;
}

/** The request's language: a `language` parameter, else the `_lang` cookie, else the fallback. */
export function requestLanguage(request: FastifyRequest, fallback: Language): Language {
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | undefined;
  return (
    asLanguage(query?.language) ??
    asLanguage(body && typeof body === 'object' ? body.language : undefined) ??
    asLanguage(request.cookies?.[LANGUAGE_COOKIE]) ??
    fallback
  );
}

/** Strips CR/LF and other control characters before a user-supplied value reaches a log line. */
export function forLog(value: unknown, max = 200): string {
  return replaceControlCharacters(String(value ?? ''), '?').slice(0, max);
}
