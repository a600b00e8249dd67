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
    scriptLanguage(request) ??
    fallback
  );
}

/**
 * A script's language (a call with `Authorization: Bearer`, an API or provider token: a billing
 * system, a deploy script) from its `Accept-Language`: the first of the panel's languages it lists
 * (weights are not weighed; a script sends one). A browser's is left to the panel's own choice.
 */
function scriptLanguage(request: FastifyRequest): Language | undefined {
  if (!/^bearer /i.test(request.headers.authorization ?? '')) return undefined;
  return (request.headers['accept-language'] ?? '')
    .split(',')
    .map((tag) => asLanguage(tag.split(';')[0]?.trim().slice(0, 2).toLowerCase()))
    .find((language) => language !== undefined);
}

/** Strips CR/LF and other control characters before a user-supplied value reaches a log line. */
export function forLog(value: unknown, max = 200): string {
  return replaceControlCharacters(String(value ?? ''), '?').slice(0, max);
}
