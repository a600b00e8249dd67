import { chmodSync, existsSync, renameSync, rmSync } from 'node:fs';
import { sqliteLibrary } from '../../db/sqlite-library.ts';
import type { FtpLogin } from './ftp.driver.ts';

/** How the copy differs from the panel's logins. */
export interface FtpCopyDrift {
  missing: string[];
  extra: string[];
  changed: string[];
}

const COLUMNS = ['passwd', 'uid', 'gid', 'homedir', 'shell'] as const;

/** A login's keys as one value, to compare. */
const keysOf = (row: FtpLogin) => [...row.keys].sort().join('\n');

/**
 * A copy of `ftp_users_view` and `sftp_keys_view` in a small SQLite file of its own, for ProFTPD when the panel runs on
 * SQLite. ProFTPD's SQLite backend sets `journal_mode = MEMORY` on every connection, which cannot
 * happen on the panel's WAL database while the panel has it open; a separate rollback-journal file,
 * replaced atomically (write aside, rename), gives ProFTPD a consistent table at every login.
 * (better-sqlite3 is the panel's own SQLite library: this is a file the daemon reads, not the
 * panel's database.)
 */
export class FtpUsersCopy {
  constructor(readonly file: string) {}

  /**
   * Replaces the copy with these logins. Synchronous from start to rename, so no other write can
   * interleave; a failure leaves the previous copy and no temporary file.
   */
  write(logins: FtpLogin[]): void {
    const temp = `${this.file}.${process.pid}.tmp`;
    rmSync(temp, { force: true });
    try {
      const SQLite = sqliteLibrary();
      const out = new SQLite(temp);
      try {
        out.pragma('journal_mode = DELETE');
        // `node` as the view has it (ProFTPD asks for its own): a panel on SQLite has no named
        // servers (their agents need PostgreSQL), so every login is the unnamed machine's ('').
        out.exec(`CREATE TABLE ftp_users_view (
          userid TEXT PRIMARY KEY, passwd TEXT NOT NULL, uid INTEGER NOT NULL, gid INTEGER NOT NULL,
          homedir TEXT NOT NULL, shell TEXT NOT NULL, node TEXT NOT NULL DEFAULT '')`);
        out.exec(`CREATE TABLE sftp_keys_view (
          userid TEXT NOT NULL, sshkey TEXT NOT NULL, node TEXT NOT NULL DEFAULT '')`);
        out.exec('CREATE INDEX sftp_keys_userid ON sftp_keys_view (userid)');
        const insert = out.prepare(
          'INSERT INTO ftp_users_view (userid, passwd, uid, gid, homedir, shell) VALUES (?, ?, ?, ?, ?, ?)',
        );
        const insertKey = out.prepare('INSERT INTO sftp_keys_view (userid, sshkey) VALUES (?, ?)');
        out.transaction(() => {
          for (const row of logins) {
            insert.run(row.userid, row.passwd, row.uid, row.gid, row.homedir, row.shell);
            for (const key of row.keys) insertKey.run(row.userid, key);
          }
        })();
      } finally {
        out.close();
      }
      // Password hashes: readable by the owner and its group only (ProFTPD reads it as root).
      chmodSync(temp, 0o640);
      renameSync(temp, this.file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }

  /** How the copy differs from these logins (a missing or unreadable copy lacks every login). */
  drift(logins: FtpLogin[]): FtpCopyDrift {
    const wanted = new Map(logins.map((row) => [row.userid, row]));
    const present = new Map<string, FtpLogin>();
    if (existsSync(this.file)) {
      try {
        const SQLite = sqliteLibrary();
        const copy = new SQLite(this.file, { readonly: true, fileMustExist: true });
        try {
          // a copy from before `node` (or before the keys) reads as unreadable: written again whole
          const all = 'SELECT userid, passwd, uid, gid, homedir, shell, node FROM ftp_users_view';
          for (const row of copy.prepare(all).all() as Omit<FtpLogin, 'keys'>[])
            present.set(row.userid, { ...row, keys: [] });
          const keys = 'SELECT userid, sshkey FROM sftp_keys_view';
          for (const key of copy.prepare(keys).all() as { userid: string; sshkey: string }[])
            present.get(key.userid)?.keys.push(key.sshkey);
        } finally {
          copy.close();
        }
      } catch {
        // not a readable copy: everything counts as missing
      }
    }
    const drift: FtpCopyDrift = { missing: [], extra: [], changed: [] };
    for (const [userid, row] of wanted) {
      const found = present.get(userid);
      if (!found) drift.missing.push(userid);
      else if (COLUMNS.some((column) => String(found[column]) !== String(row[column])) || keysOf(found) !== keysOf(row))
        drift.changed.push(userid);
    }
    for (const userid of present.keys()) if (!wanted.has(userid)) drift.extra.push(userid);
    for (const list of Object.values(drift)) list.sort();
    return drift;
  }
}
