import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsAny, type ListPage, orderOf } from '../../db/list-query.ts';
import type { FtpAccountTable } from '../../db/schema.ts';
import type { FtpLogin } from '../../drivers/ftp/ftp.driver.ts';

export const ftpRepository = {
  list(db: Db, serviceId: number) {
    return db.selectFrom('ftp_accounts').selectAll().where('service_id', '=', serviceId).orderBy('login').execute();
  },
  /** One page of the accounts whose login or folder (as shown, from "/") contains the filter. */
  async page(db: Db, serviceId: number, page: ListPage<'user' | 'folder'>) {
    let base = db.selectFrom('ftp_accounts').where('service_id', '=', serviceId);
    if (page.filter) base = base.where(containsAny([sql`login`, sql`'/' || folder`], page.filter));
    const order = orderOf({ user: sql`lower(login)`, folder: sql`lower(folder)` }, page);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy(order).limit(page.limit).offset(page.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
  find(db: Db, serviceId: number, id: number) {
    return db
      .selectFrom('ftp_accounts')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  findById(db: Db, id: number) {
    return db.selectFrom('ftp_accounts').selectAll().where('id', '=', id).executeTakeFirst();
  },
  findByLogin(db: Db, login: string) {
    return db.selectFrom('ftp_accounts').select('id').where('login', '=', login).executeTakeFirst();
  },
  insert(
    db: Db,
    row: {
      service_id: number;
      login: string;
      folder: string;
      password_hash: string;
      password_sealed: string;
      home: string;
      eliminable: number;
      created_at: number;
    },
  ) {
    return db.insertInto('ftp_accounts').values(row).returningAll().executeTakeFirstOrThrow();
  },
  /** Many accounts in one statement (the scale data set inserts them 500 at a time, in one change). */
  insertMany(
    db: Db,
    rows: {
      service_id: number;
      login: string;
      folder: string;
      password_hash: string;
      password_sealed: string;
      home: string;
      eliminable: number;
      created_at: number;
    }[],
  ) {
    return db.insertInto('ftp_accounts').values(rows).execute();
  },
  update(
    db: Db,
    serviceId: number,
    id: number,
    set: { folder?: string; home?: string; password_hash?: string; password_sealed?: string },
  ) {
    return db
      .updateTable('ftp_accounts')
      .set(set)
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /**
   * Every login as the ProFTPD of server `node` sees it (`ftp_users_view`), each with its SFTP keys
   * (`sftp_keys_view`): what the FTP driver is handed.
   */
  async logins(db: Db, node: string): Promise<FtpLogin[]> {
    const { rows } = await sql<Omit<FtpLogin, 'keys'>>`SELECT userid, passwd, uid, gid, homedir, shell
      FROM ftp_users_view WHERE node = ${node}`.execute(db);
    const keys = await sql<{ userid: string; sshkey: string }>`SELECT userid, sshkey FROM sftp_keys_view
      WHERE node = ${node} ORDER BY userid, sshkey`.execute(db);
    const logins = new Map(rows.map((row) => [row.userid, { ...row, keys: [] as string[] }]));
    for (const key of keys.rows) logins.get(key.userid)?.keys.push(key.sshkey);
    return [...logins.values()];
  },
  /** Takes an FTP change out again: the rows it added go, the ones it changed or removed come back as they were. */
  async putBack(db: Db, serviceId: number, rows: Selectable<FtpAccountTable>[], added: number[]) {
    const ids = [...added, ...rows.map((row) => row.id)];
    if (ids.length > 0)
      await db.deleteFrom('ftp_accounts').where('service_id', '=', serviceId).where('id', 'in', ids).execute();
    if (rows.length > 0) await db.insertInto('ftp_accounts').values(rows).execute();
  },
  delete(db: Db, serviceId: number, id: number) {
    return db.deleteFrom('ftp_accounts').where('service_id', '=', serviceId).where('id', '=', id).execute();
  },
};
