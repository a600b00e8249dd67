import { VIEW_COOKIE, VIEW_COOKIE_DAYS } from '@panel247/contract/constants';
import { isDark, readThemeColor, readThemeMode } from './theme-storage';
import { PHONE_QUERY } from './use-phone';

/** Where a browser has Temporal (Chromium, Firefox), its clock names the zone without ICU's formatters. */
interface TemporalClock {
  Temporal?: { Now?: { timeZoneId?: () => string } };
}

/**
 * The browser's IANA time zone. `Temporal.Now.timeZoneId()` takes no time; the first
 * `Intl.DateTimeFormat` of a page loads ICU's date data (67 ms in Chromium here, four times that
 * on Lighthouse's phone), which made the boot one long task on the login page, where no date is
 * shown. Browsers without Temporal pay it as before.
 */
export function browserTimeZone(): string {
  const temporal = (globalThis as TemporalClock).Temporal?.Now?.timeZoneId?.();
  return temporal || Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Tells the server how this browser shows the panel (contract VIEW_COOKIE), so the first screen it
 * draws for a signed-in page is the one the app would render here: the dates in this time zone,
 * the phone's layout, the scheme and the saved colour. Written at each boot and when the scheme
 * or the colour changes; a browser without it gets a page the app draws itself.
 */
export function writeViewCookie(): void {
  const prefersDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  const hints = new URLSearchParams({
    tz: browserTimeZone(),
    phone: window.matchMedia?.(PHONE_QUERY).matches ? '1' : '0',
    scheme: isDark(readThemeMode(), prefersDark) ? 'dark' : 'light',
    color: readThemeColor() ?? '',
  });
  const maxAge = VIEW_COOKIE_DAYS * 24 * 60 * 60;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the panel supports
  document.cookie = `${VIEW_COOKIE}=${encodeURIComponent(hints.toString())}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure}`;
}
