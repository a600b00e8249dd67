import {
  DEFAULT_COLOR,
  LOCAL_SETTINGS_KEY,
  LOCAL_STYLE_KEY,
  THEME_COLORS,
  type ThemeColor,
  type ThemeMode,
} from '@panel247/contract/constants';

/**
 * Local settings: `_ddcfg` holds a JSON object whose `theme` is 'dark' | 'light' | '' (system is
 * the empty value, spec section 4); `_ddstyle` holds the primary colour name.
 */

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function readSettings(): Record<string, unknown> {
  const raw = safeStorage()?.getItem(LOCAL_SETTINGS_KEY);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function readThemeMode(): ThemeMode {
  const value = readSettings().theme;
  return value === 'dark' || value === 'light' ? value : 'system';
}

export function writeThemeMode(mode: ThemeMode): void {
  const settings = readSettings();
  settings.theme = mode === 'system' ? '' : mode;
  safeStorage()?.setItem(LOCAL_SETTINGS_KEY, JSON.stringify(settings));
}

export function isThemeColor(value: unknown): value is ThemeColor {
  return typeof value === 'string' && (THEME_COLORS as readonly string[]).includes(value);
}

/** The saved colour, or null when the user never chose one (then the brand's colour applies). */
export function readThemeColor(): ThemeColor | null {
  const value = safeStorage()?.getItem(LOCAL_STYLE_KEY);
  return isThemeColor(value) ? value : null;
}

export function writeThemeColor(color: ThemeColor): void {
  safeStorage()?.setItem(LOCAL_STYLE_KEY, color);
}

/** Which colour applies: the user's if the brand allows a change, else the brand's, else indigo. */
export function effectiveColor(
  brand: ThemeColor | undefined,
  allowChange: boolean,
  saved: ThemeColor | null,
): ThemeColor {
  if (allowChange && saved) return saved;
  return brand ?? DEFAULT_COLOR;
}

/** Dark applies when the mode is dark, or system while the OS prefers dark. */
export function isDark(mode: ThemeMode, osPrefersDark: boolean): boolean {
  return mode === 'dark' || (mode === 'system' && osPrefersDark);
}
