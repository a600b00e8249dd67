import type { SessionItem } from '@panel247/contract/sessions';
import Bowser from 'bowser';

export interface UserAgentSummary {
  browser: string;
  os: string;
  device: SessionItem['device'];
}

const DEVICES = new Set<string>(['desktop', 'mobile', 'tablet']);

/**
 * Browser and system of a stored user agent, for the sessions list. Bowser (MIT) knows the
 * browsers and systems people use; anything it does not name stays '' and the page says
 * "unknown" rather than showing the raw header. Only the major version: the rest is noise.
 */
export function describeUserAgent(userAgent: string): UserAgentSummary {
  // Bowser refuses an empty string; a login without the header is stored as ''.
  if (!userAgent.trim()) return { browser: '', os: '', device: 'other' };
  const parsed = Bowser.parse(userAgent);
  const browserVersion = parsed.browser.version?.split('.')[0] ?? '';
  const browser = parsed.browser.name ? [parsed.browser.name, browserVersion].filter(Boolean).join(' ') : '';
  const osVersion = parsed.os.versionName ?? parsed.os.version ?? '';
  const os = parsed.os.name ? [parsed.os.name, osVersion].filter(Boolean).join(' ') : '';
  const type = parsed.platform.type ?? '';
  return { browser, os, device: DEVICES.has(type) ? (type as UserAgentSummary['device']) : 'other' };
}
