import { createTheme, type MantineColorScheme, type MantineColorSchemeManager } from '@mantine/core';
import type { ThemeColor, ThemeMode } from '@panel247/contract/constants';
import { PALETTE, ZINC_DARK } from './theme-colors';
import { readThemeMode, writeThemeMode } from './theme-storage';
import { writeViewCookie } from './view-cookie';

export function modeToScheme(mode: ThemeMode): MantineColorScheme {
  return mode === 'system' ? 'auto' : mode;
}

export function schemeToMode(scheme: MantineColorScheme): ThemeMode {
  return scheme === 'auto' ? 'system' : scheme;
}

/** Keeps Mantine's colour scheme in `_ddcfg.theme` (the spec's local settings key). */
export const colorSchemeManager: MantineColorSchemeManager = {
  get: () => modeToScheme(readThemeMode()),
  set: (value) => {
    writeThemeMode(schemeToMode(value));
    writeViewCookie();
  },
  // Other tabs are told through the BroadcastChannel (theme.dark), not through storage events.
  subscribe: () => {},
  unsubscribe: () => {},
  clear: () => {
    writeThemeMode('system');
    writeViewCookie();
  },
};

export function buildTheme(color: ThemeColor) {
  return createTheme({
    primaryColor: color,
    primaryShade: { light: 6, dark: 6 },
    autoContrast: true,
    colors: { ...PALETTE, gray: PALETTE.zinc, dark: ZINC_DARK },
    defaultRadius: 'md',
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji"',
    cursorType: 'pointer',
  });
}
