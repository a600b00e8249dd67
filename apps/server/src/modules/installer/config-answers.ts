import type { Language } from '@panel247/contract/constants';
import { hasControlCharacters, hasControlCharactersBesideTabAndLineBreaks } from '@panel247/contract/text-rules';
import type { FieldError } from '../../errors.ts';
import type { AppInputSpec } from './app-catalogue.ts';
import { pick } from './package-texts.ts';

const EMAIL =
  /^[^\s@"<>]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const TICKED = new Set(['1', 'on', 'true']);

/** The longest answer an input takes: the package's own limit, else one that fits a line or a text. */
export function maxLengthOf(input: AppInputSpec): number {
  return input.maxLength ?? (input.type === 'textarea' ? 5000 : 255);
}

/**
 * The answers to an application's inputs, from the install call's `<prefix><name>` fields. Only
 * the package's own inputs are read (anything else is ignored); a hidden input always has the
 * package's value (a client cannot change it); a checkbox is '1' when sent ticked, else '0'; a
 * select takes only one of its options. Texts are checked like every other text of the panel: no
 * control characters (a textarea keeps its line breaks), a maximum length, required when marked.
 */
export function readConfigAnswers(
  inputs: Map<string, AppInputSpec>,
  request: Record<string, unknown>,
  prefix: string,
  /** The user's language: a package's default answer may differ per language. */
  language: Language,
): { values: Map<string, string>; errors: FieldError[] } {
  const values = new Map<string, string>();
  const errors: FieldError[] = [];
  for (const [name, input] of inputs) {
    const field = `${prefix}${name}`;
    const sent = request[field];
    const fail = (messageKey: string) => errors.push({ field, messageKey });
    if (sent !== undefined && typeof sent !== 'string') {
      fail('validation.invalid');
      continue;
    }
    if (input.type === 'hidden') {
      values.set(name, pick(input.value, language));
      continue;
    }
    if (input.type === 'checkbox') {
      const ticked = sent !== undefined && TICKED.has(sent);
      if (input.required && !ticked) fail('validation.required');
      values.set(name, ticked ? '1' : '0');
      continue;
    }
    // An input the client left out takes the package's default (a password has none).
    const raw = sent ?? (input.password ? '' : pick(input.value, language));
    const multiline = input.type === 'textarea';
    // A textarea keeps its line breaks (and tabs), nothing else.
    if (multiline ? hasControlCharactersBesideTabAndLineBreaks(raw) : hasControlCharacters(raw)) {
      fail('validation.control_chars');
      continue;
    }
    // Passwords are taken as typed; other texts lose surrounding spaces.
    const value = input.password ? raw : raw.trim();
    const max = maxLengthOf(input);
    if (value === '') {
      if (input.required) fail('validation.required');
    } else if (value.length > max) fail('validation.too_long');
    else if (input.type === 'select' && !input.options.some((option) => option.value === value)) {
      fail('validation.invalid');
    } else if (input.format === 'email' && !EMAIL.test(value)) fail('validation.email');
    values.set(name, value);
  }
  return { values, errors };
}
