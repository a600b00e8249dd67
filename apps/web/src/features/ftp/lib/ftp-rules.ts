/** Checks of the FTP forms (spec section 5); errors are i18n keys. */

import { FTP_USER_MAX, isFtpUserName } from '@panel247/contract/ftp-rules';

/** A folder segment the server takes: letters, digits, dot, dash, underscore; never "." or "..". */
const SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,64}$/;
const MAX_SEGMENTS = 16;

export function userError(value: string): string | null {
  const user = value.trim();
  if (user === '') return 'validation.required';
  if (user.length > FTP_USER_MAX) return 'ftp.user_too_long';
  return isFtpUserName(user) ? null : 'ftp.invalid_user';
}

export function passwordError(value: string): string | null {
  return value === '' ? 'validation.required' : null;
}

/** The folder as the API wants it: relative to the service home, without slashes at the ends. */
export function folderToApi(value: string): string {
  return value.trim().replace(/^\/+|\/+$/g, '');
}

/** "/" is the home itself; below it, segments of letters, digits and . _ - (no "..", no "//"). */
export function folderError(value: string): string | null {
  if (value.trim() === '') return 'validation.required';
  const folder = folderToApi(value);
  if (folder === '') return null;
  const segments = folder.split('/');
  if (segments.length > MAX_SEGMENTS || !segments.every((segment) => SEGMENT.test(segment))) {
    return 'ftp.invalid_folder';
  }
  return null;
}

/** The folder as shown: always from the home, "/" being the home itself. */
export function folderLabel(directorio: string): string {
  return `/${directorio.replace(/^\/+/, '')}`;
}

export interface FtpCreateValues {
  ftpUser: string;
  password: string;
  folder: string;
}

export function validateFtpCreate(values: FtpCreateValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const user = userError(values.ftpUser);
  if (user) errors.ftpUser = user;
  const password = passwordError(values.password);
  if (password) errors.password = password;
  const folder = folderError(values.folder);
  if (folder) errors.folder = folder;
  return errors;
}
