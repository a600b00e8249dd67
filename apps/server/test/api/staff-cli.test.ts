import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/modules/auth/password-hasher.ts';
import { runPanel } from '../support/panel-cli.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

/** `panel staff`: the provider's console users, made, listed, re-passworded, reset and removed. */
describe.each(DATABASE_KINDS)('panel staff on %s', (kind) => {
  let dataDir: string;
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-staff-cli-'));
    database = await createTestDatabase(kind, { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    env = {
      PANEL_DATA_DIR: dataDir,
      PANEL_LOG_LEVEL: 'silent',
      ...(kind === 'postgres' ? { PANEL_DATABASE_URL: database.url as string } : {}),
    };
  });
  afterAll(async () => {
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => runPanel(env, args);
  const row = () => database.db.selectFrom('staff_users').selectAll().where('username', '=', 'ana').executeTakeFirst();

  it('adds a staff user (once), lists them without a second factor yet, and refuses a bad name', async () => {
    const added = await cli('staff', 'add', '--user', 'Ana', '--password', 'Staff-cli-pass-1');
    expect(added.code).toBe(0);
    expect(await verifyPassword((await row())?.password_hash, 'Staff-cli-pass-1')).toBe(true);
    expect((await cli('staff', 'add', '--user', 'ana', '--password', 'Staff-cli-pass-1')).code).not.toBe(0);
    expect((await cli('staff', 'add', '--user', 'no spaces', '--password', 'Staff-cli-pass-1')).code).not.toBe(0);
    const listed = JSON.parse((await cli('staff', 'list', '--json')).stdout) as {
      staff: { username: string; secondFactor: boolean }[];
    };
    expect(listed.staff).toEqual([expect.objectContaining({ username: 'ana', secondFactor: false })]);
  });

  it('sets a new password and resets the second factor, ending the sessions; then removes the user', async () => {
    const staffId = (await row())?.id as number;
    const session = () =>
      database.db
        .insertInto('staff_sessions')
        .values({
          id: `s${Date.now()}${Math.random()}`.slice(0, 60),
          staff_id: staffId,
          created_at: 1,
          last_seen_at: 1,
        })
        .execute();
    const sessions = async () =>
      (await database.db.selectFrom('staff_sessions').select('id').where('staff_id', '=', staffId).execute()).length;
    await session();
    expect((await cli('staff', 'password', '--user', 'ana', '--password', 'Staff-cli-pass-2')).code).toBe(0);
    expect(await verifyPassword((await row())?.password_hash, 'Staff-cli-pass-2')).toBe(true);
    expect(await sessions()).toBe(0);
    await database.db.updateTable('staff_users').set({ totp_sealed: 'v1.x' }).where('id', '=', staffId).execute();
    await session();
    expect((await cli('staff', 'reset-2fa', '--user', 'ana')).code).toBe(0);
    expect((await row())?.totp_sealed).toBeNull();
    expect(await sessions()).toBe(0);
    expect((await cli('staff', 'remove', '--user', 'ana')).code).toBe(0);
    expect(await row()).toBeUndefined();
    expect((await cli('staff', 'remove', '--user', 'ana')).code).not.toBe(0);
  });
});
