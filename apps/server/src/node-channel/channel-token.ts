import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The bearer token of the node channel, derived from the panel's secret key (which the control
 * plane and its agents hold alike: the agent opens the sealed keys and passwords it applies), so
 * there is no second secret to hand out. A token of its own per server replaces it once servers
 * are data with their own credentials.
 */
export function nodeChannelToken(secretKey: Buffer): string {
  return createHmac('sha256', secretKey).update('panel247 node channel v1').digest('base64url');
}

/** Whether an Authorization header carries the token (compared in constant time). */
export function carriesToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
