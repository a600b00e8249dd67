import { chmodSync, renameSync, rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

interface FtpUserRow {
  userid: string;
  passwd: string;
  uid: number;
  gid: number;
  homedir: string;
  shell: string;
}

/**
 * A copy of `ftp_users_view` in a small SQLite file of its own, for ProFTPD when the panel runs on
 * SQLite. ProFTPD's SQLite backend sets `journal_mode = MEMORY` on every connection, which cannot
 * happen on the panel's WAL database while the panel has it open; a separate rollback-journal file,
 * replaced atomically (write aside, rename), gives ProFTPD a consistent table at every login.
 * On PostgreSQL ProFTPD reads the view itself and this file is not used.
 */
export class FtpUsersFile {
  /** Writes run one after another; each reads the latest rows, so the last one wins with fresh data. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly file: string,
  ) {}

  write(): Promise<void> {
    const next = this.queue.then(() => this.writeNow());
    // a failed write must not block the next one
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async writeNow(): Promise<void> {
    const { rows } = await sql<FtpUserRow>`SELECT userid, passwd, uid, gid, homedir, shell FROM ftp_users_view`.execute(
      this.db,
    );
    const temp = `${this.file}.${process.pid}.tmp`;
    rmSync(temp, { force: true });
    const out = new SQLite(temp);
    try {
      out.pragma('journal_mode = DELETE');
      out.exec(`CREATE TABLE ftp_users_view (
        userid TEXT PRIMARY KEY, passwd TEXT NOT NULL, uid INTEGER NOT NULL, gid INTEGER NOT NULL,
        homedir TEXT NOT NULL, shell TEXT NOT NULL)`);
      const insert = out.prepare('INSERT INTO ftp_users_view VALUES (?, ?, ?, ?, ?, ?)');
      out.transaction(() => {
        for (const row of rows) insert.run(row.userid, row.passwd, row.uid, row.gid, row.homedir, row.shell);
      })();
    } finally {
      out.close();
    }
    // Password hashes: readable by the owner and its group only (ProFTPD reads it as root).
    chmodSync(temp, 0o640);
    renameSync(temp, this.file);
  }
}
