/** Mail rules shared by the server and the web form. Zod-free; errors are i18n keys. */

import { hasControlCharacters, hasControlCharactersBesideTabAndLineBreaks } from './text-rules.ts';

/** A local part the mail daemons take safely: letters, digits and . _ - + (no dot at the ends, no "..") */
export function isLocalPart(value: string): boolean {
  return /^[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9])?$/i.test(value) && !value.includes('..');
}

/**
 * The problem of a local part as typed, if any: control characters (checked before trimming could
 * hide them), required unless `allowEmpty` (an alias for every address of the domain), then the
 * allow-list. The mailbox password is the service password rule (`password-rules.ts`).
 */
export function mailLocalPartProblem(typed: string, allowEmpty: boolean): string | undefined {
  if (hasControlCharacters(typed)) return 'validation.control_chars';
  const name = typed.trim();
  if (name === '') return allowEmpty ? undefined : 'validation.required';
  return isLocalPart(name) ? undefined : 'mail.error.name';
}

/**
 * The problem of a mailbox quota in MiB, if any: a whole number from 1 to the plan's maximum. The
 * web form does not know the plan, so it checks the floor only and the server the whole range.
 */
export function mailboxQuotaProblem(quotaMb: number, maxMb = Number.MAX_SAFE_INTEGER): string | undefined {
  return Number.isSafeInteger(quotaMb) && quotaMb >= 1 && quotaMb <= maxMb ? undefined : 'mail.error.quota';
}

/**
 * An alias target as the spec says: local part, @, and a domain with a dot and a suffix of 2+
 * letters, or a bracketed IP.
 */
export function isAliasTarget(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at < 1 || value.length > 254) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!/^[a-z0-9!#$&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$&'*+/=?^_`{|}~-]+)*$/i.test(local)) return false;
  if (/^\[(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\]$/.test(domain)) {
    return domain
      .slice(1, -1)
      .split('.')
      .every((n) => Number(n) <= 255);
  }
  return /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/i.test(domain);
}

/** Targets as typed: trimmed, empty ones dropped. */
export function cleanTargets(values: string[]): string[] {
  return values.map((v) => v.trim()).filter((v) => v !== '');
}

/** Most targets one alias may have: past this a list is a mailing list, not an alias. */
export const ALIAS_MAX_TARGETS = 50;
/** Most characters of the stored comma-separated list (the column is varchar(4000)). */
export const ALIAS_TARGETS_MAX_LENGTH = 4000;

/** Whether cleaned, distinct targets fit one alias: 'count' or 'length' when they do not. */
export function targetsOverLimit(targets: readonly string[]): 'count' | 'length' | null {
  if (targets.length > ALIAS_MAX_TARGETS) return 'count';
  return targets.join(',').length > ALIAS_TARGETS_MAX_LENGTH ? 'length' : null;
}

/** Most forwarding targets a mailbox may have (Dovecot's `sieve_max_redirects` in deploy/dovecot is this). */
export const FORWARD_MAX_TARGETS = 10;
/** The autoresponder's longest period between two replies to one sender, in days. */
export const AUTOREPLY_MAX_DAYS = 30;
export const AUTOREPLY_SUBJECT_MAX = 255;
export const AUTOREPLY_BODY_MAX = 5000;

/** A calendar date as typed in the forms and stored: 'YYYY-MM-DD', a real day. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export interface AutoreplyFields {
  subject: string;
  body: string;
  start: string;
  end: string;
  days: number;
}

/**
 * The problems of an autoresponder being switched on, per field (i18n keys): a subject and a body,
 * dates that are days ('' for none) in order, and a period of 1 to AUTOREPLY_MAX_DAYS days.
 */
export function autoreplyProblems(fields: AutoreplyFields): Partial<Record<keyof AutoreplyFields, string>> {
  const problems: Partial<Record<keyof AutoreplyFields, string>> = {};
  if (fields.subject.trim() === '') problems.subject = 'validation.required';
  else if (hasControlCharacters(fields.subject)) problems.subject = 'validation.control_chars';
  else if (fields.subject.length > AUTOREPLY_SUBJECT_MAX) problems.subject = 'validation.too_long';
  if (fields.body.trim() === '') problems.body = 'validation.required';
  else if (hasControlCharactersBesideTabAndLineBreaks(fields.body)) problems.body = 'validation.control_chars';
  else if (fields.body.length > AUTOREPLY_BODY_MAX) problems.body = 'validation.too_long';
  if (fields.start !== '' && !isCalendarDate(fields.start)) problems.start = 'mail.error.date';
  if (fields.end !== '' && !isCalendarDate(fields.end)) problems.end = 'mail.error.date';
  if (!problems.start && !problems.end && fields.start !== '' && fields.end !== '' && fields.end < fields.start)
    problems.end = 'mail.error.date_order';
  if (!Number.isSafeInteger(fields.days) || fields.days < 1 || fields.days > AUTOREPLY_MAX_DAYS)
    problems.days = 'mail.error.autoreply_days';
  return problems;
}
