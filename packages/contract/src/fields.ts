import { z } from 'zod';
import { hasControlCharactersBesideTab, hasControlCharactersBesideTabAndLineBreaks } from './text-rules.ts';

/**
 * Field building blocks. Messages are i18n keys (`validation.*`): the server translates them into
 * the request's language before they reach `system.errors`.
 */

/** One-line text: trimmed, required, no CR/LF/NUL or other control characters (a TAB is typed text). */
export function line(max = 255) {
  // Control characters are checked before trimming, so a trailing CR/LF is refused, not trimmed.
  return z
    .string({ error: 'validation.required' })
    .refine((value) => !hasControlCharactersBesideTab(value), { error: 'validation.control_chars', abort: true })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.too_long' });
}

/** Multi-line text: newlines allowed, NUL and other control characters refused. */
export function text(max = 5000) {
  return z
    .string({ error: 'validation.required' })
    .refine((value) => !hasControlCharactersBesideTabAndLineBreaks(value), {
      error: 'validation.control_chars',
      abort: true,
    })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.too_long' });
}

/**
 * A string as typed, only bounded: not trimmed, empty allowed, control characters not checked.
 * For the fields whose service runs the field's own rule (a mail local part, an FTP folder, a DNS
 * value…) and answers its precise error; `line()` and `text()` are the finished rules.
 */
export function textAsTyped(max: number) {
  return z.string({ error: 'validation.required' }).max(max, { error: 'validation.too_long' });
}

/** A password as typed: not trimmed, no control characters. */
export function password(min = 1, max = 128) {
  return z
    .string({ error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .min(min, { error: 'validation.password_too_short' })
    .max(max, { error: 'validation.too_long' })
    .refine((value) => !hasControlCharactersBesideTab(value), { error: 'validation.control_chars' });
}

export const email = line(254).pipe(z.email({ error: 'validation.email' }));

/** A host name as typed by a user at login (lower-cased, LDH labels, dots). */
export const domainName = line(253)
  .transform((value) => value.toLowerCase())
  .refine(
    (value) => /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(value),
    {
      error: 'validation.domain',
    },
  );

/** The largest id a database column holds (PostgreSQL `integer`). */
export const ID_MAX = 2_147_483_647;

/**
 * A positive integer id as it arrives in a route or a form: decimal digits only, so `1e3`, `0x10`,
 * ` 5` or `1.0` never name resource 1000, 16, 5 or 1, and nothing past the columns' range reaches
 * a query (PostgreSQL would refuse it with an error, not a miss).
 */
export const idParam = z
  .union(
    [z.string().regex(/^[1-9][0-9]{0,9}$/, { error: 'validation.id' }), z.number().int({ error: 'validation.id' })],
    {
      error: 'validation.id',
    },
  )
  .transform(Number)
  .pipe(z.number().positive({ error: 'validation.id' }).max(ID_MAX, { error: 'validation.id' }));

/**
 * A form's number (digits in a string, or a number) before its checks. An empty field is absent:
 * `z.coerce.number('')` would make it 0, so a left-empty TTL or key tag would be stored as 0.
 * Absent then means the default of an optional field, and for a required one (a DNSSEC key tag,
 * required by the entry's type) the field's own error from the service that requires it.
 */
function formNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value.trim() === '' ? undefined : Number(value);
}

export interface IntegerRange {
  min?: number;
  max?: number;
}

function wholeNumber(error: string, range: IntegerRange) {
  let whole = z.number({ error }).int({ error });
  if (range.min !== undefined) whole = whole.min(range.min, { error });
  if (range.max !== undefined) whole = whole.max(range.max, { error });
  return whole;
}

/** An optional whole number: empty or absent is undefined. */
export function optionalInteger(error: string, range: IntegerRange = {}) {
  return z.preprocess(formNumber, wholeNumber(error, range).optional());
}

/** An optional whole number with a default: empty or absent is `fallback`. */
export function integerOr(fallback: number, error: string, range: IntegerRange = {}) {
  return z.preprocess(formNumber, wholeNumber(error, range).default(fallback));
}
