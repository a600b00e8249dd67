import type { Db } from '../../db/database.ts';

/** Accounts, their users and the users' sessions, as the provider's CLI manages them. Names come lower-cased. */
export const adminAccountRepository = {
  async idByDomain(db: Db, domainName: string): Promise<number | undefined> {
    return (await db.selectFrom('accounts').select('id').where('domain_name', '=', domainName).executeTakeFirst())?.id;
  },

  async insert(db: Db, row: { brand_id: number; domain_name: string; name: string; created_at: number }) {
    return (await db.insertInto('accounts').values(row).returning('id').executeTakeFirstOrThrow()).id;
  },

  list(db: Db) {
    return db
      .selectFrom('accounts as a')
      .innerJoin('brands as b', 'b.id', 'a.brand_id')
      .select(['a.id', 'a.domain_name', 'a.name', 'b.slug as brand'])
      .orderBy('a.domain_name')
      .execute();
  },

  async userId(db: Db, domainName: string, username: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select('u.id')
      .where('a.domain_name', '=', domainName)
      .where('u.username', '=', username)
      .executeTakeFirst();
    return row?.id;
  },

  async userIdInAccount(db: Db, accountId: number, username: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('users')
      .select('id')
      .where('account_id', '=', accountId)
      .where('username', '=', username)
      .executeTakeFirst();
    return row?.id;
  },

  async insertUser(
    db: Db,
    row: {
      account_id: number;
      username: string;
      password_hash: string;
      password_changed_at: number;
      created_at: number;
    },
  ): Promise<number> {
    // An account's first user holds the right to manage its users.
    const first = !(await db
      .selectFrom('users')
      .select('id')
      .where('account_id', '=', row.account_id)
      .executeTakeFirst());
    const values = { ...row, manage_users: first ? 1 : 0 };
    return (await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  /** Every user, or those of one account. */
  listUsers(db: Db, domainName?: string) {
    let query = db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select(['u.id', 'a.domain_name', 'u.username', 'u.last_login_at', 'u.manage_users', 'u.disabled_at'])
      .orderBy('a.domain_name')
      .orderBy('u.username');
    if (domainName) query = query.where('a.domain_name', '=', domainName);
    return query.execute();
  },

  setPassword(db: Db, userId: number, passwordHash: string, now: number) {
    return db
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now })
      .where('id', '=', userId)
      .execute();
  },

  setEmail(db: Db, userId: number, email: string) {
    return db.updateTable('users').set({ email }).where('id', '=', userId).execute();
  },

  /**
   * The operator's way out for a user who lost both the phone and the recovery codes (or every
   * passkey): TOTP, recovery codes and passkeys go.
   */
  async removeSecondFactor(db: Db, userId: number): Promise<boolean> {
    const result = await db.deleteFrom('user_totp').where('user_id', '=', userId).executeTakeFirst();
    await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
    const passkeys = await db.deleteFrom('user_passkeys').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) + Number(passkeys.numDeletedRows) > 0;
  },

  /** Ends every session of a user; returns their ids so open panels can be told. */
  async deleteSessionsOfUser(db: Db, userId: number): Promise<string[]> {
    const rows = await db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
    await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    return rows.map((row) => row.id);
  },

  /** The newest messages of the contact outbox, or only those not sent yet. */
  listOutbox(db: Db, unsentOnly: boolean, limit: number) {
    let query = db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit);
    if (unsentOnly) query = query.where('sent_at', 'is', null);
    return query.execute();
  },
};
