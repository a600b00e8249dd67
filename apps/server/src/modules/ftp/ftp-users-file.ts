import { chmodSync, existsSync, renameSync, rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

interface FtpUserRow {
  userid: string;
  passwd: string;
  uid: number;
  gid: number;
  homedir: string;
  shell: string;
}

/** What `ftp sync` found: logins missing from the copy, extra in it, or different. */
export interface FtpUsersDrift {
  missing: string[];
  extra: string[];
  changed: string[];
}

const COLUMNS = ['passwd', 'uid', 'gid', 'homedir', 'shell'] as const;

/**
 * A copy of `ftp_users_view` in a small SQLite file of its own, for ProFTPD when the panel runs on
 * SQLite. ProFTPD's SQLite backend sets `journal_mode = MEMORY` on every connection, which cannot
 * happen on the panel's WAL database while the panel has it open; a separate rollback-journal file,
 * replaced atomically (write aside, rename), gives ProFTPD a consistent table at every login.
 * On PostgreSQL ProFTPD reads the view itself and this file is not used.
 *
 * Every FTP change rewrites the copy inside its own transaction (`writeFrom(trx)`), from the rows
 * as that transaction sees them: if the copy cannot be written, the change rolls back, so the
 * panel and ProFTPD never disagree about an account.
 */
export class FtpUsersFile {
  /** Writes outside a change run one after another, so the last one wins with fresh rows. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    readonly file: string,
  ) {}

  /** A rewrite from the committed rows (start-up, `ftp sync`). */
  write(): Promise<void> {
    const next = this.queue.then(() => this.writeFrom(this.db));
    // a failed write must not block the next one
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Rewrites the copy from what `source` sees: pass the transaction of a change so the copy holds
   * that change before it commits. Not queued: on SQLite the transaction holds the only connection,
   * so a queued write waiting for it would wait for ever. After the rows are read everything runs
   * synchronously, so no other write can interleave between the read and the rename.
   */
  async writeFrom(source: Kysely<Database>): Promise<void> {
    const rows = await readView(source);
    const temp = `${this.file}.${process.pid}.tmp`;
    rmSync(temp, { force: true });
    try {
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
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }

  /** How the copy differs from the database (a missing or unreadable copy lacks every login). */
  async drift(): Promise<FtpUsersDrift> {
    const wanted = new Map((await readView(this.db)).map((row) => [row.userid, row]));
    const present = new Map<string, FtpUserRow>();
    if (existsSync(this.file)) {
      try {
        const copy = new SQLite(this.file, { readonly: true, fileMustExist: true });
        try {
          for (const row of copy.prepare('SELECT * FROM ftp_users_view').all() as FtpUserRow[])
            present.set(row.userid, row);
        } finally {
          copy.close();
        }
      } catch {
        // not a readable copy: everything counts as missing
      }
    }
    const drift: FtpUsersDrift = { missing: [], extra: [], changed: [] };
    for (const [userid, row] of wanted) {
      const found = present.get(userid);
      if (!found) drift.missing.push(userid);
      else if (COLUMNS.some((column) => String(found[column]) !== String(row[column]))) drift.changed.push(userid);
    }
    for (const userid of present.keys()) if (!wanted.has(userid)) drift.extra.push(userid);
    for (const list of Object.values(drift)) list.sort();
    return drift;
  }
}

async function readView(source: Kysely<Database>): Promise<FtpUserRow[]> {
  const { rows } = await sql<FtpUserRow>`SELECT userid, passwd, uid, gid, homedir, shell FROM ftp_users_view`.execute(
    source,
  );
  return rows;
}
