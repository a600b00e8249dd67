import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { StaffUserTable } from '../../db/schema.ts';

export type StaffRow = Selectable<StaffUserTable>;

/** The provider's staff and their sessions (migration 0042). */
export const staffRepository = {
  byUsername(db: Db, username: string): Promise<StaffRow | undefined> {
    return db.selectFrom('staff_users').selectAll().where('username', '=', username).executeTakeFirst();
  },

  list(db: Db) {
    return db
      .selectFrom('staff_users')
      .select(['id', 'username', 'totp_sealed', 'created_at', 'last_login_at'])
      .orderBy('username')
      .execute();
  },

  async insert(db: Db, username: string, passwordHash: string, now: number): Promise<void> {
    await db
      .insertInto('staff_users')
      .values({
        username,
        password_hash: passwordHash,
        totp_sealed: null,
        totp_pending_sealed: null,
        totp_last_step: null,
        created_at: now,
        last_login_at: null,
      })
      .execute();
  },

  async update(
    db: Db,
    id: number,
    values: Partial<
      Pick<StaffRow, 'password_hash' | 'totp_sealed' | 'totp_pending_sealed' | 'totp_last_step' | 'last_login_at'>
    >,
  ): Promise<void> {
    await db.updateTable('staff_users').set(values).where('id', '=', id).execute();
  },

  /** Moves the last accepted step forward, only if it is later: false when the code was used already. */
  async takeStep(db: Db, id: number, step: number): Promise<boolean> {
    const result = await db
      .updateTable('staff_users')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async remove(db: Db, id: number): Promise<void> {
    await db.deleteFrom('staff_users').where('id', '=', id).execute();
  },

  async insertSession(db: Db, row: { id: string; staff_id: number; created_at: number; ip: string }): Promise<void> {
    await db
      .insertInto('staff_sessions')
      .values({ ...row, last_seen_at: row.created_at })
      .execute();
  },

  session(db: Db, id: string) {
    return db
      .selectFrom('staff_sessions as s')
      .innerJoin('staff_users as u', 'u.id', 's.staff_id')
      .select(['s.id', 's.staff_id', 's.created_at', 's.last_seen_at', 'u.username', 'u.totp_sealed'])
      .where('s.id', '=', id)
      .executeTakeFirst();
  },

  async touchSession(db: Db, id: string, now: number): Promise<void> {
    await db.updateTable('staff_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
  },

  async deleteSession(db: Db, id: string): Promise<void> {
    await db.deleteFrom('staff_sessions').where('id', '=', id).execute();
  },

  /** Sessions idle since `idleBefore` or begun before `createdBefore`; answers how many went. */
  async deleteExpiredSessions(db: Db, idleBefore: number, createdBefore: number): Promise<number> {
    const result = await db
      .deleteFrom('staff_sessions')
      .where((eb) => eb.or([eb('last_seen_at', '<', idleBefore), eb('created_at', '<', createdBefore)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  async deleteSessionsOf(db: Db, staffId: number): Promise<void> {
    await db.deleteFrom('staff_sessions').where('staff_id', '=', staffId).execute();
  },
};
