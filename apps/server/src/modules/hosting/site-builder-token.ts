import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a builder login link works: long enough to open a tab, too short to be worth stealing. */
export const SITE_BUILDER_TOKEN_SECONDS = 120;

/** What the site builder learns from a token: which site of which service to open, in which language. */
export interface SiteBuilderClaims {
  v: 1;
  /** The hosting service's id. */
  service: number;
  /** The site's host name in punycode (the main domain or sub.domain). */
  host: string;
  /** The site's folder relative to the service home ('' is the home). */
  folder: string;
  lang: string;
  /** Epoch seconds. */
  iat: number;
  exp: number;
  /** Random: no two tokens are the same, so a builder may refuse a replay within `exp`. */
  nonce: string;
}

function mac(key: string, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/**
 * `<base64url(JSON claims)>.<base64url(HMAC-SHA256(key, first part))>`: a signed token the
 * builder checks with the shared key alone (deploy/sitebuilder/verify-token.php), without calling
 * back. It carries no secret, only what to open, and expires after SITE_BUILDER_TOKEN_SECONDS.
 */
export function signSiteBuilderToken(
  claims: Omit<SiteBuilderClaims, 'v' | 'iat' | 'exp' | 'nonce'>,
  key: string,
  now: number,
): string {
  const full: SiteBuilderClaims = {
    v: 1,
    ...claims,
    iat: now,
    exp: now + SITE_BUILDER_TOKEN_SECONDS,
    nonce: randomBytes(12).toString('base64url'),
  };
  const payload = Buffer.from(JSON.stringify(full)).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/** The claims of a well-signed, unexpired token; null for anything else. */
export function verifySiteBuilderToken(token: string, key: string, now: number): SiteBuilderClaims | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SiteBuilderClaims;
    return claims.v === 1 && typeof claims.exp === 'number' && claims.exp >= now ? claims : null;
  } catch {
    return null;
  }
}
