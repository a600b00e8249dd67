import type { FtpAccount } from '@panel247/contract/ftp';
import { folderLabel } from './ftp-rules';

/** Accounts sorted by login, case-insensitive (spec: lists in general). */
export function sortAccounts(accounts: readonly FtpAccount[]): FtpAccount[] {
  return [...accounts].sort((a, b) => a.user.localeCompare(b.user, undefined, { sensitivity: 'base' }));
}

/** A case-insensitive "contains" on the login and the folder. */
export function filterAccounts(accounts: readonly FtpAccount[], text: string): FtpAccount[] {
  const needle = text.trim().toLowerCase();
  if (needle === '') return [...accounts];
  return accounts.filter(
    (account) =>
      account.user.toLowerCase().includes(needle) || folderLabel(account.directorio).toLowerCase().includes(needle),
  );
}
