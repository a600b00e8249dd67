// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { formatEpoch } from './dates';

describe('formatEpoch', () => {
  const moment = Date.UTC(2026, 10, 27, 9, 5, 7) / 1000;
  const local = new Date(moment * 1000);

  it('shows the day, the minute or the second as the language writes them', () => {
    for (const language of ['es', 'en', 'ca']) {
      const day = new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(local);
      const minute = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(local);
      const second = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(local);
      expect(formatEpoch(moment, language, 'day')).toBe(day);
      expect(formatEpoch(moment, language)).toBe(minute);
      expect(formatEpoch(moment, language, 'second')).toBe(second);
    }
  });

  it('builds one formatter per language and detail, however often it formats', () => {
    const Real = Intl.DateTimeFormat;
    const built = vi
      .spyOn(Intl, 'DateTimeFormat')
      // a function called with `new` that returns an object gives that object
      .mockImplementation(function (this: unknown, ...args: ConstructorParameters<typeof Real>) {
        return new Real(...args);
      } as typeof Real);
    for (let i = 0; i < 5; i += 1) formatEpoch(moment + i, 'fr', 'day');
    formatEpoch(moment, 'fr', 'second');
    expect(built).toHaveBeenCalledTimes(2);
    built.mockRestore();
  });
});
