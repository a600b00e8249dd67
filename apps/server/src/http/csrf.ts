import { CSRF_HEADER } from '@panel247/contract/constants';
import type { FastifyRequest } from 'fastify';

/**
 * CSRF rules for the API: every call carries `x-dd-request: 1` (a header a cross-site form or
 * image cannot add), and when the browser sends an Origin it must be this panel's own. Exempt:
 * the configuration, the captcha challenge, the catalogue's logos and the file manager's downloads
 * (fetched by plain GETs, <img> tags and links, they change nothing). The
 * realtime socket cannot carry custom headers, so it needs a same-origin Origin instead. A call
 * with `Authorization: Bearer` is a script's: authenticated by that header alone, it needs neither.
 */
export function csrfAllows(
  request: FastifyRequest,
  options: { exemptGets: Set<string>; exemptGetPattern?: RegExp; socketPath: string; allowedOrigins: Set<string> },
): boolean {
  const path = request.url.split('?')[0] ?? '';
  const origin = request.headers.origin;
  if (path === options.socketPath) return typeof origin === 'string' && isSameOrigin(request, origin, options);
  if (
    (request.method === 'GET' || request.method === 'HEAD') &&
    (options.exemptGets.has(path) || options.exemptGetPattern?.test(path))
  ) {
    return true;
  }
  // A call with an API token carries no cookie the browser would add on its own: nothing to forge.
  if (isBearer(request.headers.authorization)) return true;
  if (request.headers[CSRF_HEADER] !== '1') return false;
  return origin === undefined || isSameOrigin(request, origin, options);
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
