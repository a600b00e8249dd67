/**
 * How the texts are cut for loading. The public pages (login, the logged-out not-found page, the
 * loading screen) need a small part; the screens behind a session need the rest. Each language
 * ships as three bundles built from `locales/{lang}.json` (see `locale-plugin.ts`), so the login
 * route does not pay for the texts of every area of the panel, nor for the provider's console.
 *
 * Zod-free and DOM-free: the build (Node) and the tests import it as well as the app.
 */

export type LocaleTree = { [key: string]: string | LocaleTree };
export type LocalePart = 'start' | 'areas' | 'console';

/** Where locale-plugin.ts serves the parts of the texts: `{prefix}{language}-{part}`. */
export const LOCALE_MODULE_PREFIX = 'virtual:locale/';

/** The module of one part of a language's texts, as imports and the build's manifest name it. */
export function localeModule(language: string, part: LocalePart): string {
  return `${LOCALE_MODULE_PREFIX}${language}-${part}`;
}

/**
 * Top-level groups used only behind a session. Any other group (a new one included) goes into
 * the start part (unless it is one of the console's), so a forgotten group costs bytes on the login
 * page, never a missing text.
 */
export const AREA_GROUPS: readonly string[] = [
  'legal',
  'dashboard',
  'lists',
  'contact',
  'resource',
  'password',
  'colors',
  'menu',
  'status',
  'dns',
  'domain',
  'mail',
  'ftp',
  'sftp',
  'files',
  'ddbb',
  'hosting',
  'cron',
  'stats',
  'backups',
  'installer',
  'two_factor',
  'api_tokens',
  'passkeys',
  'work',
  // the activity log (the customers' and the console's, both behind a session)
  'activity',
  // the account's users, and the invitation page (which loads this part itself)
  'users',
  'invitation',
];

/**
 * Groups of the provider's console (`/console/`), whose chunk loads them: staff never need the
 * customers' login page texts cut any finer, and customers never download the console's.
 */
export const CONSOLE_GROUPS: readonly string[] = ['console'];

/** The part a top-level group's texts ship in. */
export function partOf(group: string): LocalePart {
  if (CONSOLE_GROUPS.includes(group)) return 'console';
  return AREA_GROUPS.includes(group) ? 'areas' : 'start';
}

/** `over` with every text it lacks taken from `under`. */
export function withFallback(over: LocaleTree | undefined, under: LocaleTree): LocaleTree {
  const merged: LocaleTree = {};
  for (const [key, value] of Object.entries(under)) {
    const own = over?.[key];
    if (typeof value === 'string') merged[key] = typeof own === 'string' ? own : value;
    else merged[key] = withFallback(typeof own === 'object' ? own : undefined, value);
  }
  // A text only the language has (none should) is kept rather than silently dropped.
  for (const [key, value] of Object.entries(over ?? {})) if (!(key in merged)) merged[key] = value;
  return merged;
}

/**
 * The texts of one part of one language. Catalan falls back to Spanish: its missing texts are
 * filled in from es here, at build time, so a Catalan page loads one bundle instead of two.
 * Spanish and English are complete (a test fails otherwise) and ship as they are.
 */
export function localePart(trees: Record<string, LocaleTree>, language: string, part: LocalePart): LocaleTree {
  const es = trees.es ?? {};
  const own = trees[language] ?? {};
  const full = language === 'ca' ? withFallback(own, es) : own;
  return Object.fromEntries(Object.entries(full).filter(([group]) => partOf(group) === part));
}
