/** Mail rules shared by the server and the web form. Zod-free; errors are i18n keys. */

import { hasControlCharacters } from './text-rules.ts';

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
