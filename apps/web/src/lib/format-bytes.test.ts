// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it('uses powers of 1024 with at most 2 decimals and no trailing zeros', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(1023, 'en')).toBe('1,023 B');
    expect(formatBytes(1024 * 1024 - 1, 'en')).toBe('1 MB');
    expect(formatBytes(1024, 'en')).toBe('1 KB');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(1024 * 1024 * 1.25, 'en')).toBe('1.25 MB');
    expect(formatBytes(1024 * 1024 * 1.333, 'en')).toBe('1.33 MB');
    expect(formatBytes(1024 * 1024 * 1.999, 'en')).toBe('2 MB');
    expect(formatBytes(500 * 1024 ** 2, 'en')).toBe('500 MB');
    expect(formatBytes(2 * 1024 ** 3, 'en')).toBe('2 GB');
    expect(formatBytes(3 * 1024 ** 4, 'en')).toBe('3 TB');
    expect(formatBytes(2048 * 1024 ** 4, 'en')).toBe('2,048 TB');
  });

  it('follows the language for the decimal separator', () => {
    expect(formatBytes(1536, 'es')).toBe('1,5 KB');
  });

  it('never shows a negative size', () => {
    expect(formatBytes(-5, 'en')).toBe('0 B');
  });
});
