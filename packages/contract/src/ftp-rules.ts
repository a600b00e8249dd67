/** FTP account rules shared by the server and the web form. Zod-free, so the web chunk stays small. */

/** The longest name typed for an account (spec section 9); the login is `name@domain`. */
export const FTP_USER_MAX = 10;

/** A name ProFTPD and the shell-free tooling take: letters, digits and . _ - inside (any case: it is lowercased). */
export function isFtpUserName(value: string): boolean {
  return /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/i.test(value);
}

/**
 * The longest FTP password, in UTF-8 bytes: ProFTPD checks a bcrypt hash, and bcrypt reads only the
 * first 72 bytes, so a longer password would also accept anything sharing those 72.
 */
export const FTP_PASSWORD_MAX_BYTES = 72;

/** Whether a password fits bcrypt (counted in UTF-8 bytes, as crypt(3) reads it). */
export function ftpPasswordFits(value: string): boolean {
  return new TextEncoder().encode(value).length <= FTP_PASSWORD_MAX_BYTES;
}
