import { describe, expect, it } from 'vitest';
import { SERVICE_PASSWORD_MIN, servicePasswordProblem } from '../src/password-rules.ts';

describe('service password rule', () => {
  it('answers the key of the first problem, or nothing', () => {
    expect(servicePasswordProblem('')).toBe('validation.required');
    expect(servicePasswordProblem('long enough\n')).toBe('validation.control_chars');
    expect(servicePasswordProblem('tab\tinside')).toBe('validation.control_chars');
    expect(servicePasswordProblem('x'.repeat(SERVICE_PASSWORD_MIN - 1))).toBe('validation.password_short');
    expect(servicePasswordProblem('x'.repeat(SERVICE_PASSWORD_MIN))).toBeUndefined();
    expect(servicePasswordProblem(`quo'te"s\\ $ñ`)).toBeUndefined();
  });
});
