import { describe, expect, it } from 'vitest';
import { MESSAGES, translate } from '../../src/i18n/messages.ts';

describe('server messages', () => {
  it('has every key in Spanish, English and Catalan', () => {
    expect(Object.keys(MESSAGES.en).sort()).toEqual(Object.keys(MESSAGES.es).sort());
    expect(Object.keys(MESSAGES.ca).sort()).toEqual(Object.keys(MESSAGES.es).sort());
    for (const language of ['es', 'en', 'ca'] as const) {
      for (const text of Object.values(MESSAGES[language])) expect(text.trim()).not.toBe('');
    }
  });

  it('translates, fills parameters and leaves unknown keys as they are', () => {
    expect(translate('ca', 'error.not_found')).toBe('Recurs no trobat');
    expect(translate('ca', 'error.csrf')).toBe('Petició rebutjada: origen no permès');
    expect(translate('en', 'auth.too_many_attempts', { minutes: 15 })).toBe(
      'Too many failed attempts. Try again in 15 minutes.',
    );
    expect(translate('es', 'unknown.key')).toBe('unknown.key');
  });
});
