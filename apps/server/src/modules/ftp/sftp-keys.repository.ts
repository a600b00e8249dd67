import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SshKeyTable } from '../../db/schema.ts';

export type SshKeyRow = Selectable<SshKeyTable>;

/** A service's SFTP keys (`ssh_keys`, migration 0047), each with the login it opens. */
export const sftpKeysRepository = {
  /** The service's keys, oldest first, each with its FTP account's login ('' : the service's own). */
  list(db: Db, serviceId: number) {
    return db
      .selectFrom('ssh_keys as k')
      .leftJoin('ftp_accounts as f', 'f.id', 'k.ftp_account_id')
      .selectAll('k')
      .select('f.login as account_login')
      .where('k.service_id', '=', serviceId)
      .orderBy('k.id')
      .execute();
  },
  find(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('ssh_keys')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  /** The keys of one FTP account (what its removal takes with it). */
  ofAccount(db: Db, serviceId: number, ftpAccountId: number) {
    return db
      .selectFrom('ssh_keys')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('ftp_account_id', '=', ftpAccountId)
      .execute();
  },
  /** Whether this key already opens this login (null: the service's own). */
  async has(db: Db, serviceId: number, ftpAccountId: number | null, fingerprint: string): Promise<boolean> {
    let query = db
      .selectFrom('ssh_keys')
      .select('id')
      .where('service_id', '=', serviceId)
      .where('fingerprint', '=', fingerprint);
    query =
      ftpAccountId === null
        ? query.where('ftp_account_id', 'is', null)
        : query.where('ftp_account_id', '=', ftpAccountId);
    return (await query.executeTakeFirst()) !== undefined;
  },
  insert(db: Db, row: Omit<SshKeyRow, 'id'>) {
    return db.insertInto('ssh_keys').values(row).returningAll().executeTakeFirstOrThrow();
  },
  delete(db: Db, serviceId: number, id: number) {
    return db.deleteFrom('ssh_keys').where('service_id', '=', serviceId).where('id', '=', id).execute();
  },
  /** Takes a change to the keys out again: the rows it added go, the ones it removed come back. */
  async putBack(db: Db, serviceId: number, rows: SshKeyRow[], added: number[]) {
    const ids = [...added, ...rows.map((row) => row.id)];
    if (ids.length > 0)
      await db.deleteFrom('ssh_keys').where('service_id', '=', serviceId).where('id', 'in', ids).execute();
    if (rows.length > 0) await db.insertInto('ssh_keys').values(rows).execute();
  },
  /**
   * Whether the service has its own SFTP login, as ProFTPD sees the logins: `ftp_users_view` gives
   * a service one (its domain) once it has a system user with a home, and not while suspended.
   */
  async hasServiceLogin(db: Db, domain: string): Promise<boolean> {
    const { rows } = await sql`SELECT 1 FROM ftp_users_view WHERE userid = ${domain}`.execute(db);
    return rows.length > 0;
  },
};
