import type { Db } from '../../db/database.ts';

type CeremonyPurpose = 'register' | 'reauth';

export const passkeyRepository = {
  listOfUser(db: Db, userId: number) {
    return db
      .selectFrom('user_passkeys')
      .select([
        'id',
        'credential_id',
        'public_key',
        'sign_count',
        'transports',
        'name',
        'backed_up',
        'created_at',
        'last_used_at',
      ])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  },

  async countOfUser(db: Db, userId: number): Promise<number> {
    const row = await db
      .selectFrom('user_passkeys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  findOfUserByCredential(db: Db, userId: number, credentialId: string) {
    return db
      .selectFrom('user_passkeys')
      .select(['id', 'credential_id', 'public_key', 'sign_count', 'transports', 'name'])
      .where('user_id', '=', userId)
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
  },

  findOfUser(db: Db, userId: number, id: number) {
    return db
      .selectFrom('user_passkeys')
      .select(['id', 'name'])
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** False when the credential is already registered (to anyone: a credential id is unique). */
  async insert(
    db: Db,
    row: {
      userId: number;
      credentialId: string;
      publicKey: string;
      signCount: number;
      transports: string;
      name: string;
      backedUp: boolean;
      now: number;
    },
  ): Promise<number | undefined> {
    const inserted = await db
      .insertInto('user_passkeys')
      .values({
        user_id: row.userId,
        credential_id: row.credentialId,
        public_key: row.publicKey,
        sign_count: row.signCount,
        transports: row.transports,
        name: row.name,
        backed_up: row.backedUp ? 1 : 0,
        created_at: row.now,
        last_used_at: null,
      })
      .onConflict((oc) => oc.column('credential_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  },

  /**
   * Records a use with the authenticator's new counter, only if the counter is still the one the
   * check was made against: of two requests replaying one signature, one passes.
   */
  async recordUse(db: Db, id: number, previousCount: number, newCount: number, now: number): Promise<boolean> {
    const result = await db
      .updateTable('user_passkeys')
      .set({ sign_count: newCount, last_used_at: now })
      .where('id', '=', id)
      .where('sign_count', '=', previousCount)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async rename(db: Db, userId: number, id: number, name: string): Promise<boolean> {
    const result = await db
      .updateTable('user_passkeys')
      .set({ name })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async remove(db: Db, userId: number, id: number): Promise<boolean> {
    const result = await db
      .deleteFrom('user_passkeys')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async removeAllOfUser(db: Db, userId: number): Promise<number> {
    const result = await db.deleteFrom('user_passkeys').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** A new ceremony of this kind replaces the user's pending one. */
  async putChallenge(db: Db, userId: number, purpose: CeremonyPurpose, challenge: string, expiresAt: number) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('passkey_challenges').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
      await trx
        .insertInto('passkey_challenges')
        .values({ user_id: userId, purpose, challenge, expires_at: expiresAt })
        .execute();
    });
  },

  /** The pending challenge, used up by this call (a response can be checked against it once). */
  async takeChallenge(db: Db, userId: number, purpose: CeremonyPurpose, now: number): Promise<string | undefined> {
    const row = await db
      .selectFrom('passkey_challenges')
      .select(['challenge', 'expires_at'])
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row) return undefined;
    const deleted = await db
      .deleteFrom('passkey_challenges')
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('challenge', '=', row.challenge)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) === 1 && row.expires_at > now ? row.challenge : undefined;
  },

  async purgeChallenges(db: Db, now: number): Promise<void> {
    await db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute();
  },

  /** Sets the challenge a passkey must sign to answer a pending login. */
  async setLoginChallenge(db: Db, id: string, challenge: string, now: number): Promise<boolean> {
    const result = await db
      .updateTable('login_challenges')
      .set({ passkey_challenge: challenge })
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  insertPasswordlessLogin(
    db: Db,
    row: {
      id: string;
      userId: number;
      accountKey: string;
      previousLoginAt: number | null;
      challenge: string;
      expiresAt: number;
    },
  ) {
    return db
      .insertInto('login_challenges')
      .values({
        id: row.id,
        user_id: row.userId,
        account_key: row.accountKey,
        previous_login_at: row.previousLoginAt,
        expires_at: row.expiresAt,
        passkey_challenge: row.challenge,
        passwordless: 1,
      })
      .execute();
  },

  findLogin(db: Db, id: string, now: number) {
    return db
      .selectFrom('login_challenges as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select([
        'c.user_id',
        'c.account_key',
        'c.previous_login_at',
        'c.passkey_challenge',
        'c.passwordless',
        'u.username',
        'a.id as account_id',
        'a.domain_name',
      ])
      .where('c.id', '=', id)
      .where('c.expires_at', '>', now)
      .executeTakeFirst();
  },

  /** Takes the login's passkey challenge: one signature checked per challenge handed out. */
  async takeLoginChallenge(db: Db, id: string, challenge: string): Promise<boolean> {
    const result = await db
      .updateTable('login_challenges')
      .set({ passkey_challenge: null })
      .where('id', '=', id)
      .where('passkey_challenge', '=', challenge)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
};
