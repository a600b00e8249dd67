import type { SessionItem } from '@panel247/contract/sessions';
import Bowser from 'bowser';

export interface UserAgentSummary {
  browser: string;
  os: string;
  device: SessionItem['device'];
}

const DEVICES = new Set<string>(['desktop', 'mobile', 'tablet']);

/**
 * Bowser names an unknown client after the header's first word ("MyBot/1.0 …" is "MyBot"), so a
 * name is only kept if it looks like one: short, letters, digits and a few separators.
 */
const NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,39}$/u;
const VERSION = /^[\p{L}\p{N}][\p{L}\p{N} ._]{0,19}$/u;

function part(name: string | undefined, version: string | undefined): string {
  if (!name || !NAME.test(name)) return '';
  return version && VERSION.test(version) ? `${name} ${version}` : name;
}

/**
 * Browser and system of a stored user agent, for the sessions list. Bowser (MIT) knows the
 * browsers and systems people use; anything it does not name stays '' and the page says
 * "unknown" rather than showing the raw header. Only the major version: the rest is noise.
 */
export function describeUserAgent(userAgent: string): UserAgentSummary {
  // Bowser refuses an empty string; a login without the header is stored as ''.
  if (!userAgent.trim()) return { browser: '', os: '', device: 'other' };
  const parsed = Bowser.parse(userAgent);
  const browser = part(parsed.browser.name, parsed.browser.version?.split('.')[0]);
  const os = part(parsed.os.name, parsed.os.versionName ?? parsed.os.version);
  const type = parsed.platform.type ?? '';
  return { browser, os, device: DEVICES.has(type) ? (type as UserAgentSummary['device']) : 'other' };
}
