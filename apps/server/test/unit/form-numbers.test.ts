import { integerOr, optionalInteger } from '@panel247/contract/fields';
import { describe, expect, it } from 'vitest';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);

describe('form numbers', () => {
  it('an empty optional number is absent, or its default', () => {
    expect(optionalInteger('mail.error.quota').parse('')).toBeUndefined();
    expect(optionalInteger('mail.error.quota').parse(undefined)).toBeUndefined();
    expect(optionalInteger('mail.error.quota').parse('512')).toBe(512);
    expect(integerOr(20, 'dns.error.priority').parse('')).toBe(20);
    expect(integerOr(20, 'dns.error.priority').parse(undefined)).toBe(20);
    expect(integerOr(20, 'dns.error.priority').parse('0')).toBe(0);
    expect(messages(integerOr(20, 'dns.error.priority').safeParse('abc'))).toEqual(['dns.error.priority']);
    expect(messages(integerOr(10, 'validation.invalid', { min: 1, max: 100 }).safeParse('101'))).toEqual([
      'validation.invalid',
    ]);
  });
});
