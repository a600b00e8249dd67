import type { SyncOptions } from '../sync-options.ts';

/**
 * The FTP driver: what the panel does to the FTP server (ProFTPD) and to the accounts' home
 * folders. The panel database stays the source of truth: ProFTPD reads the accounts through
 * `ftp_users_view` (on PostgreSQL directly; on SQLite from a copy the driver keeps), and the driver
 * is handed the complete list of logins, as the view has them, whenever it must act on them.
 */

/** One login as `ftp_users_view` has it: what ProFTPD authenticates and where it puts the user. */
export interface FtpLogin {
  userid: string;
  passwd: string;
  uid: number;
  gid: number;
  homedir: string;
  shell: string;
  /** Its SFTP keys as `sftp_keys_view` has them (RFC 4716 text), in a stable order. */
  keys: string[];
}

/** A home folder that would break its login: missing, not a folder, or owned by someone else. */
export interface FtpHomeDrift {
  login: string;
  home: string;
  problem: 'missing' | 'not_a_folder' | 'owner' | 'outside_root';
  /**
   * Whether `sync` put it right (never on a dry run; a file in the folder's place, or a path
   * outside the root, is only reported).
   */
  repaired: boolean;
}

/** What `sync` found: logins missing from the server's copy, extra in it or different; home folders. */
export interface FtpDrift {
  /** The copy ProFTPD reads, when the driver keeps one. */
  file: string | null;
  missing: string[];
  extra: string[];
  changed: string[];
  homes: FtpHomeDrift[];
}

export interface FtpDriver {
  readonly kind: 'embedded' | 'proftpd';
  /**
   * Whether the server reads a copy of the logins that every change must rewrite (ProFTPD on a
   * panel on SQLite): then `publish` runs inside each change's transaction.
   */
  readonly keepsCopy: boolean;
  /** Where an account's home folder (relative, already normalised) is: the path ProFTPD is given. */
  homeOf(domain: string, folder: string): string;
  /** An account's home folder (relative, already normalised), created and owned by the hosting user. */
  prepareHome(domain: string, folder: string, field: string): Promise<string>;
  /**
   * Hands the server the complete list of logins. A failure is a DaemonError: inside a change it
   * rolls the change back, so the panel and the server never disagree about an account.
   */
  publish(logins: FtpLogin[]): Promise<void>;
  /** Compares the server's side (the copy, the home folders) with these logins, then repairs it unless `dryRun`. */
  sync(logins: FtpLogin[], options: SyncOptions): Promise<FtpDrift>;
}
