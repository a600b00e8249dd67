import { THEME_COLORS, type ThemeColor } from '@panel247/contract/constants';

/** How the visitor's browser shows the panel, as its view cookie says (apps/web/src/lib/view-cookie.ts). */
export interface ViewHints {
  timeZone: string;
  phone: boolean;
  scheme: 'dark' | 'light';
  color: ThemeColor | null;
}

/** An IANA zone name's characters; the zone must also be one this runtime knows. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

function knownZone(value: string | null): string | null {
  if (!value || !ZONE_NAME.test(value)) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value;
  } catch {
    return null;
  }
}

/**
 * The hints of a view cookie's value (contract VIEW_COOKIE), each checked against what it may be;
 * null when there is no cookie or its zone is not a known one (the page is then drawn by the app
 * alone, as before the cookie).
 */
export function viewHintsOf(raw: string | undefined): ViewHints | null {
  if (!raw || raw.length > 512) return null;
  const fields = new URLSearchParams(raw);
  const timeZone = knownZone(fields.get('tz'));
  if (!timeZone) return null;
  const color = fields.get('color');
  return {
    timeZone,
    phone: fields.get('phone') === '1',
    scheme: fields.get('scheme') === 'dark' ? 'dark' : 'light',
    color: (THEME_COLORS as readonly string[]).includes(color ?? '') ? (color as ThemeColor) : null,
  };
}
