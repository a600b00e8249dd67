import { CSRF_HEADER } from '@panel247/contract/constants';
import type { FastifyRequest } from 'fastify';

export interface CsrfRules {
  /** Routes as registered (`/p247/hostingapplication/:appId/logo/`) a plain GET or HEAD may reach. */
  exemptGets: Set<string>;
  /** The realtime socket's route. */
  socketRoute: string;
  allowedOrigins: Set<string>;
}

/**
 * The route a request reached, as it was registered (`/p247/service/:id/dns/list/`): what the CSRF
 * rule and the API's headers are decided by. Fastify matches routes on the percent-decoded path,
 * so `/%70247/…` reaches the same handler as `/p247/…`; a check on the raw URL could be sidestepped
 * by spelling the path another way, and refusing the encodings one knows of would miss the next
 * one. The matched route cannot be spelled differently. A request no route matched runs nothing
 * but the not-found answer: its raw path only chooses that answer's headers.
 */
export function matchedRoute(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split('?')[0] ?? '';
}

/**
 * CSRF rules for the API: every call carries `x-dd-request: 1` (a header a cross-site form or
 * image cannot add), and when the browser sends an Origin it must be this panel's own. Exempt:
 * the configuration, the captcha challenge, the catalogue's logos and the file manager's downloads
 * (fetched by plain GETs, <img> tags and links, they change nothing). The
 * realtime socket cannot carry custom headers, so it needs a same-origin Origin instead. A call
 * with `Authorization: Bearer` is a script's: authenticated by that header alone, it needs neither.
 * `route` is the matched route (see matchedRoute), never the raw URL.
 */
export function csrfAllows(request: FastifyRequest, route: string, rules: CsrfRules): boolean {
  const origin = request.headers.origin;
  if (route === rules.socketRoute) return typeof origin === 'string' && isSameOrigin(request, origin, rules);
  if ((request.method === 'GET' || request.method === 'HEAD') && rules.exemptGets.has(route)) return true;
  // A call with an API token carries no cookie the browser would add on its own: nothing to forge.
  if (isBearer(request.headers.authorization)) return true;
  if (request.headers[CSRF_HEADER] !== '1') return false;
  return origin === undefined || isSameOrigin(request, origin, rules);
}

function isSameOrigin(request: FastifyRequest, origin: string, options: { allowedOrigins: Set<string> }): boolean {
  if (options.allowedOrigins.has(origin)) return true;
  try {
    // Both through URL, so a default port (":80", ":443") compares equal to none.
    const own = new URL(`${request.protocol}://${request.headers.host ?? ''}`);
    return new URL(origin).origin === own.origin;
  } catch {
    return false;
  }
}

function isBearer(value: string | undefined): boolean {
  return typeof value === 'string' && /^bearer /i.test(value);
}
