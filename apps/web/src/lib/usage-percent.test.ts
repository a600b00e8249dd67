// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatPercent, usagePercent } from './usage-percent';

describe('usagePercent', () => {
  it('is used / limit with 2 decimals', () => {
    expect(usagePercent(1, 3)).toBe(33.33);
    expect(usagePercent(2, 3)).toBe(66.67);
    expect(usagePercent(512, 1024)).toBe(50);
    expect(usagePercent(0, 1024)).toBe(0);
    expect(usagePercent(2048, 1024)).toBe(200);
  });

  it('has no value without a limit', () => {
    expect(usagePercent(10, 0)).toBeNull();
  });

  it('shows 2 decimals', () => {
    expect(formatPercent(50, 'en')).toBe('50.00 %');
    expect(formatPercent(33.33, 'es')).toBe('33,33 %');
  });
});
