import type { Language } from '@panel247/contract/constants';
import { CSRF_HEADER } from '@panel247/contract/constants';
import { itemIdFromPath } from '@panel247/contract/item-path';
import { API } from '@panel247/contract/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * What a signed-in page's boot would ask first, answered inside the page (apps/web/src/lib/boot-data.ts
 * puts it in the app's cache): the brand's configuration, the session's user, the permission list
 * and, on an item's address, that item's permission set; the login page carries the configuration
 * alone. Only what the calls answered as a success is here; a call that failed (a session gone, an id that is not the user's) is left out,
 * and the app asks it again as it always has, so its not-found page, login redirect and
 * session-loss modal stay what they were.
 */
export interface BootData {
  /** The language the page, and so these answers, are in. */
  language: Language;
  config?: unknown;
  user?: unknown;
  permissions?: unknown;
  set?: { id: number; data: unknown };
  /** On a page the server drew: the view's first data it was drawn with (server-draw.ts). */
  queries?: { queryKey: unknown[]; data: unknown }[];
  /** On a page the server drew: what it assumed of the browser, which the app's hydration starts from. */
  drawnFor?: { phone: boolean };
}

/** The request headers a call of the page's own would carry: who, from where, in which language. */
const FORWARDED = [
  'cookie',
  'host',
  'accept-language',
  'user-agent',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
] as const;

/** What a page's calls are made in: its language, forced or not, and the base path of the API. */
export interface PageCallOptions {
  basePath: string;
  language: Language;
  forcedLanguage: boolean;
}

/** A read call of the page's own: its answer's data, or undefined when it did not succeed. */
export type PageCall = (
  method: 'GET' | 'POST',
  path: string,
  query?: Record<string, string> | URLSearchParams,
) => Promise<unknown>;

/**
 * Calls made for the page's own request, through the panel's own routes (`inject`): the same
 * authentication, brand, language and answers as the browser's calls would get, with this
 * request's cookie and no other.
 */
export function pageCaller(app: FastifyInstance, request: FastifyRequest, options: PageCallOptions): PageCall {
  const headers: Record<string, string> = { [CSRF_HEADER]: '1', accept: 'application/json' };
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return async (method, path, query = {}) => {
    const params = new URLSearchParams(query);
    if (options.forcedLanguage) params.set('language', options.language);
    const answer = await app.inject({
      method,
      url: `${options.basePath}${path}`,
      query: params.toString(),
      headers,
      remoteAddress: request.socket.remoteAddress,
    });
    if (answer.statusCode !== 200) return undefined;
    const body = answer.json() as { system?: { valid?: boolean }; data?: unknown };
    return body.system?.valid === true ? body.data : undefined;
  };
}

/**
 * The boot's calls for the page's own request (see pageCaller). All four only read. Without a
 * session (`session: false`, a request without its cookie) only the configuration is asked.
 */
export async function bootDataOf(
  app: FastifyInstance,
  request: FastifyRequest,
  options: PageCallOptions & { referer?: string; session: boolean },
): Promise<BootData> {
  const call = pageCaller(app, request, options);
  const itemId = itemIdFromPath(request.url.split('?')[0] ?? '');
  const [config, user] = await Promise.all([
    call('GET', API.configGet, options.referer ? { _referer_: options.referer } : {}),
    options.session ? call('POST', API.userInfo) : undefined,
  ]);
  const boot: BootData = { language: options.language, config, user };
  if (!user) return boot;
  const [permissions, set] = await Promise.all([
    call('GET', API.permissionList),
    itemId === null ? undefined : call('POST', API.permissionSet(itemId)),
  ]);
  boot.permissions = permissions;
  if (itemId !== null && set !== undefined) boot.set = { id: itemId, data: set };
  return boot;
}

/**
 * The boot data as the page carries it: a JSON block the browser never runs. `<` is written as
 * its escape, so no value (a brand's name, a domain) can close the script element early.
 */
export function bootScript(boot: BootData): string {
  const json = JSON.stringify(boot).replace(/</g, '\\u003c');
  return `<script type="application/json" id="panel247-boot">${json}</script>`;
}
