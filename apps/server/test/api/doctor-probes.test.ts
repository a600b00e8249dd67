import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { verifyPassword } from '../../src/modules/auth/password-hasher.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

interface Part {
  part: string;
  name: string;
  state: string;
}

/**
 * `panel doctor probes`: the provider's probe service made from the PANEL_DOCTOR_* logins, the
 * same on both databases; a second run changes nothing, a changed password is set again.
 */
describe.each(DATABASE_KINDS)('panel doctor probes on %s', (kind) => {
  let dataDir: string;
  let database: TestDatabase;
  let env: Record<string, string>;
  const logins = {
    PANEL_DOCTOR_MAIL_LOGIN: 'doctor@sonda.example.com',
    PANEL_DOCTOR_MAIL_PASSWORD: 'probe mail password 1',
    PANEL_DOCTOR_FTP_LOGIN: 'doctor@sonda.example.com',
    PANEL_DOCTOR_FTP_PASSWORD: 'probe ftp password 1',
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-probes-'));
    database = await createTestDatabase(kind, { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    env = {
      PANEL_DATA_DIR: dataDir,
      PANEL_HOSTING_ROOT: path.join(dataDir, 'homes'),
      PANEL_MAIL_ROOT: path.join(dataDir, 'mail'),
      PANEL_LOG_LEVEL: 'silent',
      ...(kind === 'postgres' ? { PANEL_DATABASE_URL: database.url as string } : {}),
    };
  });
  afterAll(async () => {
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const probes = async (extra: Record<string, string>) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['doctor', 'probes', '--json'], {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      readStdin: async () => '',
      env: { ...env, ...extra },
    });
    return { code, stderr, parts: code === 0 ? (JSON.parse(stdout) as { parts: Part[] }).parts : [] };
  };
  const states = (parts: Part[]) => parts.map((part) => `${part.part} ${part.name}: ${part.state}`);

  it('refuses without the four logins, naming the missing ones, and with logins of two domains', async () => {
    const none = await probes({});
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('set PANEL_DOCTOR_MAIL_LOGIN, PANEL_DOCTOR_MAIL_PASSWORD');
    const split = await probes({ ...logins, PANEL_DOCTOR_FTP_LOGIN: 'doctor@otro.example.com' });
    expect(split.code).toBe(1);
    expect(split.stderr).toContain('must be of one domain');
  });

  it('makes the account, the service with its site and zone, the mailbox and the FTP account; a second run keeps them', async () => {
    const first = await probes(logins);
    expect(first.stderr).toBe('');
    expect(states(first.parts)).toEqual([
      'account sonda.example.com: made',
      'service sonda.example.com: made',
      'site sonda.example.com: made',
      'mailbox doctor@sonda.example.com: made',
      'ftp account doctor@sonda.example.com: made',
    ]);
    const mailbox = await database.db
      .selectFrom('mailboxes')
      .select('password_hash')
      .where('local_part', '=', 'doctor')
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(mailbox.password_hash.replace(/^\{ARGON2ID\}/, ''), 'probe mail password 1')).toBe(
      true,
    );
    const ftp = await database.db
      .selectFrom('ftp_accounts')
      .select(['login', 'folder'])
      .where('login', '=', 'doctor@sonda.example.com')
      .executeTakeFirstOrThrow();
    expect(ftp.folder).toBe('');
    const again = await probes(logins);
    expect(again.parts.every((part) => part.state === 'kept')).toBe(true);
  });

  it('sets a password again when the logins changed it, and only that', async () => {
    const changed = await probes({ ...logins, PANEL_DOCTOR_MAIL_PASSWORD: 'probe mail password 2' });
    expect(changed.parts.filter((part) => part.state !== 'kept')).toEqual([
      { part: 'mailbox', name: 'doctor@sonda.example.com', state: 'repaired' },
    ]);
    const ftp = await probes({
      ...logins,
      PANEL_DOCTOR_MAIL_PASSWORD: 'probe mail password 2',
      PANEL_DOCTOR_FTP_PASSWORD: 'probe ftp password 2',
    });
    expect(ftp.parts.filter((part) => part.state !== 'kept')).toEqual([
      { part: 'ftp account', name: 'doctor@sonda.example.com', state: 'repaired' },
    ]);
  });
});
