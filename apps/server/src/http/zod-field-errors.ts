import type { z } from 'zod';
import { type FieldError, FieldErrors } from '../errors.ts';
import { isMessageKey } from '../i18n/messages.ts';

/**
 * Turns zod issues into field errors, one per field, in the order of the schema's issues.
 * Our schemas carry i18n keys (`validation.*`) as messages; zod's own defaults are mapped by code.
 */
export function toFieldErrors(error: z.ZodError, input: Record<string, unknown>): FieldErrors {
  const seen = new Set<string>();
  const fields: FieldError[] = [];
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '_');
    if (seen.has(field)) continue;
    seen.add(field);
    fields.push({ field, messageKey: messageKeyOf(issue, input[field]), params: paramsOf(issue) });
  }
  return new FieldErrors(fields);
}

function messageKeyOf(issue: z.core.$ZodIssue, value: unknown): string {
  // Our own messages are i18n keys such as `validation.too_long` or `files.error.path`.
  if (isMessageKey(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined || value === '' ? 'validation.required' : 'validation.type';
    case 'too_big':
      return 'validation.too_long';
    case 'too_small':
      return value === undefined || value === '' ? 'validation.required' : 'validation.invalid';
    default:
      return 'validation.invalid';
  }
}

function paramsOf(issue: z.core.$ZodIssue): Record<string, string | number> {
  if (issue.code === 'too_small') return { min: Number(issue.minimum) };
  if (issue.code === 'too_big') return { max: Number(issue.maximum) };
  return {};
}
