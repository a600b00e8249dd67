import { domainToASCII } from 'node:url';
import {
  LANGUAGES,
  type Language,
  PERMISSION_KEYS,
  PERMISSION_LEVELS,
  type PermissionKey,
  type PermissionLevel,
  THEME_COLORS,
  type ThemeColor,
} from '@panel247/contract/constants';
import { hasControlCharacters, hasControlCharactersBesideTabAndLineBreaks } from '@panel247/contract/text-rules';
import { PASSWORD_MIN_LENGTH } from '@panel247/contract/user';
import { type ArgValues, CliError } from './command.ts';

/**
 * Allow-lists for every value the CLI takes. Nothing reaches the database without passing one of
 * these; each error names the option so the provider can fix the call.
 */

const LDH = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Shown instead of the value when it holds control characters, so the terminal stays sane. */
function shown(value: string): string {
  return JSON.stringify(value);
}

export function optionString(values: ArgValues, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new CliError(`--${name} needs a value`);
  return value;
}

export function requiredString(values: ArgValues, name: string): string {
  const value = optionString(values, name);
  if (value === undefined) throw new CliError(`--${name} is required`);
  return value;
}

export function optionStrings(values: ArgValues, name: string): string[] {
  const value = values[name];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (typeof item !== 'string') throw new CliError(`--${name} needs a value`);
    return item;
  });
}

export function flag(values: ArgValues, name: string): boolean {
  return values[name] === true;
}

/** A host or domain name: LDH labels, lower-cased. */
export function domainName(value: string, option = 'domain'): string {
  const lower = value.toLowerCase();
  if (hasControlCharacters(value) || !LDH.test(lower)) {
    throw new CliError(`--${option}: ${shown(value)} is not a valid domain name (letters, digits, hyphens, dots)`);
  }
  return lower;
}

/** A resource reference: a domain name, internationalized ones allowed (checked in punycode). */
export function reference(value: string, option = 'reference'): string {
  const lower = value.toLowerCase();
  const ascii = hasControlCharacters(value) || /\s/.test(value) ? '' : domainToASCII(lower);
  if (!ascii || !LDH.test(ascii)) throw new CliError(`--${option}: ${shown(value)} is not a valid domain name`);
  return lower;
}

export function username(value: string, option = 'user'): string {
  if (!/^[a-z0-9._-]{1,64}$/.test(value)) {
    throw new CliError(`--${option}: ${shown(value)} is not a valid user name (a-z, 0-9, '.', '_', '-'; up to 64)`);
  }
  return value;
}

export function slug(value: string, option = 'slug'): string {
  if (!/^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/.test(value)) {
    throw new CliError(`--${option}: ${shown(value)} is not a valid slug (a-z, 0-9 and inner hyphens; up to 64)`);
  }
  return value;
}

export function channel(value: string, option = 'channel'): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) {
    throw new CliError(`--${option}: ${shown(value)} is not a valid channel name (A-Z, a-z, 0-9, '_', '-')`);
  }
  return value;
}

/** One line of text: no control characters, trimmed, not empty. */
export function line(value: string, option: string, max = 255): string {
  if (hasControlCharacters(value)) throw new CliError(`--${option}: control characters (CR, LF, NUL…) are not allowed`);
  const trimmed = value.trim();
  if (!trimmed) throw new CliError(`--${option} must not be empty`);
  if (trimmed.length > max) throw new CliError(`--${option} is longer than ${max} characters`);
  return trimmed;
}

/** Multi-line text (legal texts): newlines and tabs allowed, other control characters refused. */
export function text(value: string, option: string, max = 200_000): string {
  if (hasControlCharactersBesideTabAndLineBreaks(value))
    throw new CliError(`--${option}: control characters are not allowed`);
  const trimmed = value.trim();
  if (!trimmed) throw new CliError(`--${option} must not be empty`);
  if (trimmed.length > max) throw new CliError(`--${option} is longer than ${max} characters`);
  return trimmed;
}

export function email(value: string, option = 'contact-email'): string {
  if (value === '') return '';
  if (
    hasControlCharacters(value) ||
    value.length > 254 ||
    !/^[^\s@"<>(),;:\\[\]]+@[a-z0-9.-]+\.[a-z]{2,}$/i.test(value)
  ) {
    throw new CliError(`--${option}: ${shown(value)} is not a valid e-mail address`);
  }
  return value;
}

/** An http(s) URL or a path on this server (`/branding/logo.svg`); empty resets to the default. */
export function urlOrPath(value: string, option: string, allowPath = true): string {
  if (value === '') return '';
  const bad = () => new CliError(`--${option}: ${shown(value)} is not a valid ${allowPath ? 'URL or /path' : 'URL'}`);
  if (value.length > 2048 || /[\s"'<>\\`]/.test(value) || hasControlCharacters(value)) throw bad();
  if (allowPath && /^\/(?!\/)[A-Za-z0-9._~/%-]*$/.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad();
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad();
  return value;
}

export function color(value: string, option = 'color'): ThemeColor {
  if (!(THEME_COLORS as readonly string[]).includes(value)) {
    throw new CliError(`--${option}: unknown colour ${shown(value)} (one of ${THEME_COLORS.join(', ')})`);
  }
  return value as ThemeColor;
}

export function language(value: string, option = 'language'): Language {
  if (!(LANGUAGES as readonly string[]).includes(value)) {
    throw new CliError(`--${option}: unknown language ${shown(value)} (one of ${LANGUAGES.join(', ')})`);
  }
  return value as Language;
}

export function level(value: string, option = 'all'): PermissionLevel {
  if (!(PERMISSION_LEVELS as readonly string[]).includes(value)) {
    throw new CliError(`--${option}: unknown level ${shown(value)} (one of ${PERMISSION_LEVELS.join(', ')})`);
  }
  return value as PermissionLevel;
}

export function permissionKey(value: string, option = 'key'): PermissionKey {
  if (!(PERMISSION_KEYS as readonly string[]).includes(value)) {
    throw new CliError(`--${option}: unknown permission key ${shown(value)} (one of ${PERMISSION_KEYS.join(', ')})`);
  }
  return value as PermissionKey;
}

/** `--key domain_dns=write`, repeatable. */
export function keyLevels(items: string[]): Partial<Record<PermissionKey, PermissionLevel>> {
  const levels: Partial<Record<PermissionKey, PermissionLevel>> = {};
  for (const item of items) {
    const [key, value, ...rest] = item.split('=');
    if (key === undefined || value === undefined || rest.length > 0) {
      throw new CliError(`--key: ${shown(item)} must look like KEY=LEVEL, e.g. domain_dns=write`);
    }
    levels[permissionKey(key)] = level(value, 'key');
  }
  return levels;
}

export function boolean(value: string, option: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new CliError(`--${option}: ${shown(value)} must be true or false`);
}

/** YYYY-MM-DD (a real calendar day) → epoch seconds at 00:00 UTC. */
export function date(value: string, option: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw new CliError(`--${option}: ${shown(value)} is not a date like 2030-12-31`);
  }
  return ms / 1000;
}

export function integer(value: string, option: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new CliError(`--${option}: ${shown(value)} must be a whole number from ${min} to ${max}`);
  }
  return Number(value);
}

/** A login password: no control characters, at least PASSWORD_MIN_LENGTH characters. */
export function password(value: string): string {
  if (hasControlCharacters(value)) throw new CliError('The password must not hold control characters');
  if (value.length < PASSWORD_MIN_LENGTH) {
    throw new CliError(`The password needs at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (value.length > 128) throw new CliError('The password is longer than 128 characters');
  return value;
}
