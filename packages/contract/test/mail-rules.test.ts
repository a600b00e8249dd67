import { describe, expect, it } from 'vitest';
import { mailboxQuotaProblem, mailLocalPartProblem } from '../src/mail-rules.ts';

describe('mail rules', () => {
  it('checks a local part as typed: control characters first, then required, then the allow-list', () => {
    expect(mailLocalPartProblem(' info\r', false)).toBe('validation.control_chars');
    expect(mailLocalPartProblem('in\tfo', true)).toBe('validation.control_chars');
    expect(mailLocalPartProblem('  ', false)).toBe('validation.required');
    expect(mailLocalPartProblem('', true)).toBeUndefined();
    for (const bad of ['in fo', '.info', 'info.', 'in..fo', 'ñu', 'a@b']) {
      expect(mailLocalPartProblem(bad, false)).toBe('mail.error.name');
    }
    for (const good of [' Info ', 'a', 'first.last', 'sales+eu', 'x_y-z']) {
      expect(mailLocalPartProblem(good, false)).toBeUndefined();
    }
  });

  it('takes a quota of whole MiB from 1 to the maximum (the floor only when the maximum is unknown)', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(mailboxQuotaProblem(bad)).toBe('mail.error.quota');
    }
    expect(mailboxQuotaProblem(1)).toBeUndefined();
    expect(mailboxQuotaProblem(1_000_000)).toBeUndefined();
    expect(mailboxQuotaProblem(500, 500)).toBeUndefined();
    expect(mailboxQuotaProblem(501, 500)).toBe('mail.error.quota');
  });
});
