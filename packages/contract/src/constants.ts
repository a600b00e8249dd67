/**
 * Business constants shared by server and web. Kept free of zod so the login route's bundle can
 * import them without pulling the schema library in.
 */

export const DEFAULT_BASE_PATH = '/p247/';
export const DEFAULT_CHANNEL = 'panel247_channel';

export const LANGUAGES = ['es', 'en', 'ca'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';
export const LANGUAGE_COOKIE = '_lang';
export const LANGUAGE_COOKIE_DAYS = 1;

/**
 * What a browser knows of how it shows the panel and the server needs to draw a signed-in page
 * the same way: the time zone, the phone layout, the dark or light scheme and the saved colour
 * (`tz`, `phone`, `scheme`, `color`, form-encoded). Written by the app at each boot; nothing in it
 * is secret or trusted beyond the look of a page.
 */
export const VIEW_COOKIE = 'panel247_view';
export const VIEW_COOKIE_DAYS = 365;

/** The 22 Tailwind palette names offered as primary colours. */
export const THEME_COLORS = [
  'slate',
  'gray',
  'zinc',
  'neutral',
  'stone',
  'red',
  'orange',
  'amber',
  'yellow',
  'lime',
  'green',
  'emerald',
  'teal',
  'cyan',
  'sky',
  'blue',
  'indigo',
  'violet',
  'purple',
  'fuchsia',
  'pink',
  'rose',
] as const;
export type ThemeColor = (typeof THEME_COLORS)[number];
export const DEFAULT_COLOR: ThemeColor = 'indigo';
export const THEME_MODES = ['system', 'light', 'dark'] as const;
export type ThemeMode = (typeof THEME_MODES)[number];

/** Local storage keys of the web client. */
export const LOCAL_SETTINGS_KEY = '_ddcfg';
export const LOCAL_STYLE_KEY = '_ddstyle';

export const TOAST_MS = 5000;
/** Rows per page of every list; the pagination shows only when a list has more (spec 2 section 2). */
export const LIST_PAGE_SIZE = 10;
export const SPINNER_DELAY_MS = 400;
export const DOUBLE_ESCAPE_MS = 200;
export const COPY_RESET_MS = 2000;
export const CITY_LOOKUP_DEBOUNCE_MS = 200;

/** system.statusCode that tells the client its session is gone. */
export const STATUS_SESSION_LOST = 101;
/** Header that marks a JSON answer of the API. */
export const JSON_MARK_HEADER = 'x-dd';
/** Header every state-changing call must carry (CSRF defence). */
export const CSRF_HEADER = 'x-dd-request';

export const PERMISSION_KEYS = [
  'domain',
  'domain_ownercontacts',
  'domain_contacts',
  'domain_dns',
  'domain_gluerecords',
  'domain_dnssec',
  'domain_transferblock',
  'domain_authcode',
  'domain_others',
  'service',
  'service_ftp',
  'service_subdomains',
  'service_redirects',
  'service_ddbb',
  'service_dnszone',
  'service_parking',
  'service_backups',
  'service_cron',
  'service_stats',
  'servicemail',
  'servicemail_accounts',
  'servicemail_alias',
  'servicemail_spam',
] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];

export const PERMISSION_LEVELS = ['disabled', 'read', 'write'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

/** Visible means read or write. */
export function isVisible(level: PermissionLevel | undefined): boolean {
  return level === 'read' || level === 'write';
}

/** Actionable means write only. */
export function isActionable(level: PermissionLevel | undefined): boolean {
  return level === 'write';
}

/** Cross-tab events (BroadcastChannel) and realtime socket events. */
export const CROSS_TAB_EVENTS = ['user.logout', 'user.login', 'user.lang', 'theme.color', 'theme.dark'] as const;
export const REALTIME_EVENTS = ['permissions.changed', 'session.ended'] as const;
export type RealtimeEventType = (typeof REALTIME_EVENTS)[number];
