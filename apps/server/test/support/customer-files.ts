import { lchownSync, mkdirSync } from 'node:fs';

/** The shared hosting user, who owns service homes while services have no users of their own. */
export const HOSTING_UID = 33;

/**
 * Gives what a test put in a home to the hosting user, as an FTP upload would: the panel works
 * in homes with that user's rights when the tests run as root, not with its own.
 */
export function asCustomer(...paths: string[]): void {
  if (process.getuid?.() !== 0) return;
  for (const file of paths) lchownSync(file, HOSTING_UID, HOSTING_UID);
}

/** A service home (and the folders above it that are missing) as the panel makes it. */
export function customerHome(home: string): string {
  mkdirSync(home, { recursive: true });
  asCustomer(home);
  return home;
}
