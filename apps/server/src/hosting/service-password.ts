import type { FieldError } from '../errors.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Shortest password accepted for a service login (FTP account, database user). */
export const SERVICE_PASSWORD_MIN = 8;

/**
 * The password rule shared by FTP accounts and databases: required, at least 8 characters, no
 * control characters (a newline would break ProFTPD's and MariaDB's own tools). Quotes,
 * backslashes and the like are fine: they only ever travel as bound values.
 */
export function checkServicePassword(password: string, field = 'password'): FieldError[] {
  if (password === '') return [{ field, messageKey: 'validation.required' }];
  if (CONTROL.test(password)) return [{ field, messageKey: 'validation.control_chars' }];
  if (password.length < SERVICE_PASSWORD_MIN) return [{ field, messageKey: 'mail.error.password_short' }];
  return [];
}
