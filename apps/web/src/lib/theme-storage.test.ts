import { THEME_COLORS } from '@panel247/contract/constants';
import { beforeEach, describe, expect, it } from 'vitest';
import { PALETTE } from './theme-colors';
import {
  effectiveColor,
  isDark,
  readThemeColor,
  readThemeMode,
  writeThemeColor,
  writeThemeMode,
} from './theme-storage';

beforeEach(() => localStorage.clear());

describe('theme storage', () => {
  it("keeps the mode under _ddcfg.theme, system as '' and other settings untouched", () => {
    localStorage.setItem('_ddcfg', JSON.stringify({ other: 1 }));
    writeThemeMode('dark');
    expect(JSON.parse(localStorage.getItem('_ddcfg') ?? '{}')).toEqual({ other: 1, theme: 'dark' });
    expect(readThemeMode()).toBe('dark');
    writeThemeMode('system');
    expect(JSON.parse(localStorage.getItem('_ddcfg') ?? '{}')).toEqual({ other: 1, theme: '' });
    expect(readThemeMode()).toBe('system');
  });

  it('reads garbage as system', () => {
    localStorage.setItem('_ddcfg', '{not json');
    expect(readThemeMode()).toBe('system');
    localStorage.setItem('_ddcfg', JSON.stringify({ theme: 'purple' }));
    expect(readThemeMode()).toBe('system');
  });

  it('keeps the colour under _ddstyle and ignores unknown names', () => {
    expect(readThemeColor()).toBeNull();
    writeThemeColor('rose');
    expect(localStorage.getItem('_ddstyle')).toBe('rose');
    expect(readThemeColor()).toBe('rose');
    localStorage.setItem('_ddstyle', 'magenta');
    expect(readThemeColor()).toBeNull();
  });

  it("uses the user's colour only when the brand allows a change, else the brand's, else indigo", () => {
    expect(effectiveColor('teal', true, 'rose')).toBe('rose');
    expect(effectiveColor('teal', false, 'rose')).toBe('teal');
    expect(effectiveColor('teal', true, null)).toBe('teal');
    expect(effectiveColor(undefined, true, null)).toBe('indigo');
  });

  it('dark applies for dark, or system while the OS prefers dark', () => {
    expect(isDark('dark', false)).toBe(true);
    expect(isDark('light', true)).toBe(false);
    expect(isDark('system', true)).toBe(true);
    expect(isDark('system', false)).toBe(false);
  });

  it('defines 10 shades for each of the 22 colours', () => {
    expect(THEME_COLORS).toHaveLength(22);
    for (const name of THEME_COLORS) {
      expect(PALETTE[name]).toHaveLength(10);
      for (const shade of PALETTE[name]) expect(shade).toMatch(/^#[0-9a-f]{6}$/);
    }
  });
});
