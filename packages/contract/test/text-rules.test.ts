import { describe, expect, it } from 'vitest';
import {
  hasControlCharacters,
  hasControlCharactersBesideTab,
  hasControlCharactersBesideTabAndLineBreaks,
  replaceControlCharacters,
} from '../src/text-rules.ts';

const EVERY_CONTROL = [...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)), '\u007f'];

describe('text rules', () => {
  it('finds every C0 control character and DEL, TAB included', () => {
    for (const char of EVERY_CONTROL) expect(hasControlCharacters(`a${char}b`)).toBe(true);
    for (const clean of ['', 'plain text', 'ñandú ü €', 'quotes \' " \\ and $']) {
      expect(hasControlCharacters(clean)).toBe(false);
    }
  });

  it('lets one line of free text keep a TAB, nothing else', () => {
    expect(hasControlCharactersBesideTab('a\tb')).toBe(false);
    for (const char of EVERY_CONTROL.filter((c) => c !== '\t')) expect(hasControlCharactersBesideTab(char)).toBe(true);
  });

  it('lets multi-line text keep TAB, LF and CR, nothing else', () => {
    expect(hasControlCharactersBesideTabAndLineBreaks('line 1\r\nline 2\n\tindented')).toBe(false);
    for (const char of EVERY_CONTROL.filter((c) => !'\t\n\r'.includes(c))) {
      expect(hasControlCharactersBesideTabAndLineBreaks(char)).toBe(true);
    }
  });

  it('replaces every control character, and only those', () => {
    expect(replaceControlCharacters('a\r\nb\u0000c\u007fd\te ñ', '?')).toBe('a??b?c?d?e ñ');
    expect(replaceControlCharacters('clean', '?')).toBe('clean');
  });
});
