/** Password generation shared by every password form (mail, FTP, databases). Zod-free. */

import { hasControlCharacters } from './text-rules.ts';

export const GENERATED_PASSWORD_LENGTH = 14;
export const PASSWORD_SYMBOLS = '!#$%&*+-=?@^_';

/** 14 characters with at least one lower, one upper, one digit and one symbol. */
export function generatePassword(random: (max: number) => number): string {
  const sets = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', PASSWORD_SYMBOLS];
  const all = sets.join('');
  const chars = sets.map((set) => set[random(set.length)] as string);
  while (chars.length < GENERATED_PASSWORD_LENGTH) chars.push(all[random(all.length)] as string);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}

/** Shortest password accepted for a service login (mailbox, FTP account, database user). */
export const SERVICE_PASSWORD_MIN = 8;

/**
 * The password rule of service logins: required, at least 8 characters, no control characters (a
 * newline would break ProFTPD's and MariaDB's own tools). Quotes, backslashes and the like are
 * fine: they only ever travel as bound values. Answers the i18n key of the problem, if any.
 */
export function servicePasswordProblem(password: string): string | undefined {
  if (password === '') return 'validation.required';
  if (hasControlCharacters(password)) return 'validation.control_chars';
  if (password.length < SERVICE_PASSWORD_MIN) return 'validation.password_short';
  return undefined;
}
