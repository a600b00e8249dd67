/** Checks of the FTP forms (spec section 5); errors are i18n keys. */

import { FTP_USER_MAX, ftpPasswordFits, isFtpUserName } from '@panel247/contract/ftp-rules';
import { serviceFolderError } from '../../../lib/service-folder';

export { folderLabel, folderToApi } from '../../../lib/service-folder';

export function userError(value: string): string | null {
  const user = value.trim();
  if (user === '') return 'validation.required';
  if (user.length > FTP_USER_MAX) return 'ftp.user_too_long';
  return isFtpUserName(user) ? null : 'ftp.invalid_user';
}

/** Required, and no longer than bcrypt reads (72 bytes, as the server checks). */
export function passwordError(value: string): string | null {
  if (value === '') return 'validation.required';
  return ftpPasswordFits(value) ? null : 'ftp.password_too_long';
}

/** "/" is the home itself; below it, segments of letters, digits and . _ - (no "..", no "//"). */
export function folderError(value: string): string | null {
  return serviceFolderError(value, 'ftp.invalid_folder');
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
