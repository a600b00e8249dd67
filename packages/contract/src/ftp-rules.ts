/** FTP account rules shared by the server and the web form. Zod-free, so the web chunk stays small. */

/** The longest name typed for an account (spec section 9); the login is `name@domain`. */
export const FTP_USER_MAX = 10;

/** A name ProFTPD and the shell-free tooling take: letters, digits and . _ - inside (any case: it is lowercased). */
export function isFtpUserName(value: string): boolean {
  return /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/i.test(value);
}
