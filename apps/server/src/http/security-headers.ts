import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { LATE_START_SCRIPT_HASH } from './late-start.ts';

/**
 * Helmet's headers, computed once at start. @fastify/helmet rebuilds them on every request, which
 * measured as half of a small call's cost; the headers never change, so the panel runs helmet once
 * against a stub response and sets the result with one `reply.headers()` per request.
 */
export function computeSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, response, () => undefined);
  return headers;
}

/**
 * The headers that matter for an API answer: no sniffing (a JSON answer is never read as HTML or
 * script) and no cross-origin reads. Framing and referrer rules govern documents, which API
 * answers never are; each header costs on every call (`npm run bench`).
 */
export function apiSecurityHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  const keep = ['x-content-type-options', 'cross-origin-resource-policy'];
  return Object.fromEntries(Object.entries(documentHeaders).filter(([name]) => keep.includes(name)));
}

/**
 * One of the two inline scripts the panel serves (the other starts a drawn page’s app,
 * late-start.ts): the login page's HTML frame sets the light or dark scheme before the first
 * paint (apps/web/shell/login-shell.html). Allowed by its hash, so every other inline script stays
 * refused; test/unit/login-shell-csp.test.ts keeps the hash true.
 */
export const SHELL_SCRIPT_HASH = "'sha256-CIHv8gQ73ki7EMLIuFOLr/eQ6PijW1gEX9SADiD2nMA='";

/** The panel's helmet options: one place, used by the app and by the benchmark's ladder. */
export const PANEL_HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      // The ALTCHA widget solves its proof of work in a blob: worker.
      'worker-src': ["'self'", 'blob:'],
      'img-src': ["'self'", 'data:', 'https:'],
      'script-src': [
        "'self'",
        SHELL_SCRIPT_HASH,
        LATE_START_SCRIPT_HASH,
        'https://www.google.com',
        'https://www.gstatic.com',
        'https://js.hcaptcha.com',
        'https://challenges.cloudflare.com',
      ],
      'frame-src': [
        "'self'",
        'https://www.google.com',
        'https://newassets.hcaptcha.com',
        'https://challenges.cloudflare.com',
      ],
      'connect-src': ["'self'"],
      // Helmet's default would rewrite every request to https, breaking plain-HTTP installs.
      'upgrade-insecure-requests': null,
    },
  },
  // HSTS belongs to the TLS proxy in front, which knows whether HTTPS is really there.
  strictTransportSecurity: false,
};
