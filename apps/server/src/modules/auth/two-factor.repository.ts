import type { Db } from '../../db/database.ts';

export const twoFactorRepository = {
  findTotp(db: Db, userId: number) {
    return db
      .selectFrom('user_totp')
      .select(['secret_sealed', 'enabled_at', 'last_step'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
  },

  /** A new enrolment replaces one that was never confirmed (never an enabled one). */
  async startEnrolment(db: Db, userId: number, secretSealed: string, now: number): Promise<boolean> {
    await db.deleteFrom('user_totp').where('user_id', '=', userId).where('enabled_at', 'is', null).execute();
    const inserted = await db
      .insertInto('user_totp')
      .values({ user_id: userId, secret_sealed: secretSealed, enabled_at: null, last_step: null, created_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  },

  /**
   * Records that a code of `step` was accepted, only if no code of that step or a later one was:
   * two requests with the same code cannot both pass. `enable` also switches the factor on.
   */
  async acceptStep(db: Db, userId: number, step: number, enable?: number): Promise<boolean> {
    const result = await db
      .updateTable('user_totp')
      .set(enable === undefined ? { last_step: step } : { last_step: step, enabled_at: enable })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .where('enabled_at', enable === undefined ? 'is not' : 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async removeTotp(db: Db, userId: number): Promise<void> {
    await db.deleteFrom('user_totp').where('user_id', '=', userId).execute();
    await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
  },

  async replaceRecoveryCodes(db: Db, userId: number, hashes: string[], now: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('user_recovery_codes')
        .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: now })))
        .execute();
    });
  },

  /** Marks an unused code used; false when there is none (or a parallel request took it). */
  async useRecoveryCode(db: Db, userId: number, hash: string, now: number): Promise<boolean> {
    const result = await db
      .updateTable('user_recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) >= 1;
  },

  async recoveryCodesLeft(db: Db, userId: number): Promise<number> {
    const row = await db
      .selectFrom('user_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  insertChallenge(
    db: Db,
    row: { id: string; userId: number; accountKey: string; previousLoginAt: number | null; expiresAt: number },
  ) {
    return db
      .insertInto('login_challenges')
      .values({
        id: row.id,
        user_id: row.userId,
        account_key: row.accountKey,
        previous_login_at: row.previousLoginAt,
        expires_at: row.expiresAt,
      })
      .execute();
  },

  findChallenge(db: Db, id: string, now: number) {
    return db
      .selectFrom('login_challenges as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select([
        'c.user_id',
        'c.account_key',
        'c.previous_login_at',
        'c.passwordless',
        'u.username',
        'a.id as account_id',
        'a.domain_name',
      ])
      .where('c.id', '=', id)
      .where('c.expires_at', '>', now)
      .executeTakeFirst();
  },

  /** Single use: only the request that deletes the challenge goes on to a session. */
  async consumeChallenge(db: Db, id: string): Promise<boolean> {
    const result = await db.deleteFrom('login_challenges').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async purgeChallenges(db: Db, now: number): Promise<void> {
    await db.deleteFrom('login_challenges').where('expires_at', '<=', now).execute();
  },

  /** The user's address for security notices, their names, and whether their brand requires two factors. */
  /** Every factor of the user removed, and one required again (a manager's reset). */
  async resetFactors(db: Db, userId: number): Promise<void> {
    await db.deleteFrom('user_totp').where('user_id', '=', userId).execute();
    await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
    await db.deleteFrom('user_passkeys').where('user_id', '=', userId).execute();
    await db.updateTable('users').set({ second_factor_required: 1 }).where('id', '=', userId).execute();
  },

  /** The user has a factor again: a reset's requirement is met. */
  async factorSetUp(db: Db, userId: number): Promise<void> {
    await db
      .updateTable('users')
      .set({ second_factor_required: 0 })
      .where('id', '=', userId)
      .where('second_factor_required', '=', 1)
      .execute();
  },

  findContext(db: Db, userId: number) {
    return db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .innerJoin('brands as b', 'b.id', 'a.brand_id')
      .select(['u.email', 'u.username', 'u.second_factor_required', 'a.domain_name', 'a.brand_id', 'b.require_2fa'])
      .where('u.id', '=', userId)
      .executeTakeFirst();
  },
};
