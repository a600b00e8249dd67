import type { Db } from '../../db/database.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import { hashPassword } from '../auth/password-hasher.ts';
import { staffRepository } from './staff.repository.ts';

/** A staff user's name: what the console's sign-in takes (lower case). */
export const STAFF_USERNAME = /^[a-z0-9._-]{1,64}$/;

/**
 * The provider's staff as the provider's CLI manages them (`panel staff …`): made with a password,
 * their second factor set up at their first sign-in; a new password or a reset second factor
 * ends their sessions.
 */
export class StaffUsers {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  async add(username: string, password: string): Promise<void> {
    if (await staffRepository.byUsername(this.db, username))
      throw new ConflictError('console.error.staff_taken', { username });
    await staffRepository.insert(this.db, username, await hashPassword(password), this.now());
  }

  async list() {
    return (await staffRepository.list(this.db)).map((row) => ({
      username: row.username,
      secondFactor: row.totp_sealed !== null,
      createdAt: Number(row.created_at),
      lastLoginAt: row.last_login_at === null ? null : Number(row.last_login_at),
    }));
  }

  async remove(username: string): Promise<void> {
    await staffRepository.remove(this.db, (await this.existing(username)).id);
  }

  async setPassword(username: string, password: string): Promise<void> {
    const staff = await this.existing(username);
    await staffRepository.update(this.db, staff.id, { password_hash: await hashPassword(password) });
    await staffRepository.deleteSessionsOf(this.db, staff.id);
  }

  /** A lost phone: the second factor is set up again at the next sign-in; sessions end. */
  async resetSecondFactor(username: string): Promise<void> {
    const staff = await this.existing(username);
    await staffRepository.update(this.db, staff.id, {
      totp_sealed: null,
      totp_pending_sealed: null,
      totp_last_step: null,
    });
    await staffRepository.deleteSessionsOf(this.db, staff.id);
  }

  private async existing(username: string) {
    const staff = await staffRepository.byUsername(this.db, username);
    if (!staff) throw new NotFoundError('console.error.staff_unknown');
    return staff;
  }
}
