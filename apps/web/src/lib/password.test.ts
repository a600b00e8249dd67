// @vitest-environment node
import { GENERATED_PASSWORD_LENGTH, PASSWORD_SYMBOLS } from '@panel247/contract/password-rules';
import { describe, expect, it } from 'vitest';
import { newPassword, secureRandom } from './password';

describe('generated passwords', () => {
  it('are 14 characters with a lower, an upper, a digit and a symbol', () => {
    const symbol = new RegExp(`[${PASSWORD_SYMBOLS.replace(/[\]\\^-]/g, '\\$&')}]`);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = newPassword();
      expect(password).toHaveLength(GENERATED_PASSWORD_LENGTH);
      expect(GENERATED_PASSWORD_LENGTH).toBe(14);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[0-9]/);
      expect(password).toMatch(symbol);
      seen.add(password);
    }
    expect(seen.size).toBe(200);
  });

  it('draws uniform values below the bound', () => {
    for (let i = 0; i < 1000; i++) {
      const value = secureRandom(13);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(13);
    }
  });
});
