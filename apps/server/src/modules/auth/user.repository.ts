import type { Db } from '../../db/database.ts';

export const userRepository = {
  findForLogin(db: Db, domainName: string, username: string) {
    return db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select(['u.id', 'u.password_hash', 'u.last_login_at', 'a.id as account_id', 'a.brand_id'])
      .where('a.domain_name', '=', domainName)
      .where('u.username', '=', username)
      .executeTakeFirst();
  },

  findById(db: Db, userId: number) {
    return db
      .selectFrom('users')
      .select(['id', 'password_hash', 'last_login_at', 'last_login_ip'])
      .where('id', '=', userId)
      .executeTakeFirst();
  },

  recordLogin(db: Db, userId: number, now: number, ip: string) {
    return db.updateTable('users').set({ last_login_at: now, last_login_ip: ip }).where('id', '=', userId).execute();
  },

  setPasswordHash(db: Db, userId: number, passwordHash: string, now: number) {
    return db
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now })
      .where('id', '=', userId)
      .execute();
  },
};
