import type { Logger } from '../../logger.ts';
import type { SecurityEvent } from '../activity/activity-notes.ts';

export interface CookieOptions {
  path: string;
  secure: boolean;
  httpOnly?: boolean;
  sameSite?: 'lax' | 'strict';
  /** Seconds. */
  maxAge?: number;
}

/**
 * One call from a browser or an API client, as the services need to know it: where it came from,
 * the cookies it sent and those its answer sets, its log lines, and the security events it
 * caused (the activity log records them when the call ends). The HTTP side makes it from
 * Fastify's request and reply (http/client-call-of.ts); no service sees those, so a service runs
 * the same for a test, a command or another transport.
 */
export interface ClientCall {
  readonly ip: string;
  /** At most 512 characters. */
  readonly userAgent: string;
  /** Whether the browser used HTTPS (the session cookie's name and Secure flag). */
  readonly secure: boolean;
  /** The host the browser asked for, with its port (passkeys' relying party). */
  readonly host: string;
  /** The Authorization header, when one was sent (an API token's call). */
  readonly authorization: string | undefined;
  /** The route the call matched, as registered (`/p247/user/passkeys/:id/remove/`). */
  readonly route: string;
  /** Whether the route may be called before a second factor the user must set up is set up. */
  readonly beforeSecondFactor: boolean;
  /** The call's logger (with its request id). */
  readonly log: Logger;
  cookie(name: string): string | undefined;
  setCookie(name: string, value: string, options: CookieOptions): void;
  clearCookie(name: string, options: CookieOptions): void;
  /** Security events the call caused (logins, failures, security changes), oldest first. */
  readonly securityEvents: SecurityEvent[];
}
