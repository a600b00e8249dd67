import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../../../../deploy/postgresql/daemon-roles.sql');

/** One query as `role`: its rows, or the error PostgreSQL gave. */
async function as(url: string, role: string, query: string): Promise<string> {
  const target = new URL(url);
  target.username = role;
  target.password = 'x';
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    const result = await client.query(query);
    return `rows: ${result.rowCount}`;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end();
  }
}

/** deploy/postgresql/daemon-roles.sql, run with psql as an operator would, twice. */
describe('the daemons’ PostgreSQL roles (deploy/postgresql/daemon-roles.sql)', () => {
  let database: TestDatabase;
  let url: string;
  /** What the second run said on stderr, and the stored passwords before and after it. */
  let secondRun: { stderr: string; before: string; after: string };

  const storedPasswords = async () =>
    (
      await run('psql', [
        '-X',
        '-qAt',
        '-d',
        url,
        '-c',
        "SELECT string_agg(rolname || '=' || coalesce(rolpassword, ''), ',' ORDER BY rolname) FROM pg_authid WHERE rolname IN ('panel247_mail', 'panel247_ftp')",
      ])
    ).stdout.trim();
  const script = (...variables: string[]) =>
    run('psql', ['-X', '-q', '-d', url, ...variables.flatMap((variable) => ['-v', variable]), '-f', SCRIPT]);

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    url = database.url as string;
    await script('mail_password=m', 'ftp_password=f');
    const before = await storedPasswords();
    const { stderr } = await script('mail_password=other', 'ftp_password=other');
    secondRun = { stderr, before, after: await storedPasswords() };
  });
  afterAll(async () => {
    // the grants go with the database; the roles (cluster-wide) are left for the next run to reuse
    await database.destroy();
  });

  it('lets the mail daemons read the mail views and nothing else', async () => {
    for (const view of ['mail_domains_view', 'mail_users_view', 'mail_aliases_view', 'mail_senders_view']) {
      expect(await as(url, 'panel247_mail', `SELECT * FROM ${view}`)).toBe('rows: 0');
    }
    expect(await as(url, 'panel247_mail', 'SELECT * FROM mailboxes')).toMatch(/permission denied/);
    expect(await as(url, 'panel247_mail', 'SELECT * FROM ftp_users_view')).toMatch(/permission denied/);
    expect(await as(url, 'panel247_mail', 'SELECT * FROM users')).toMatch(/permission denied/);
    expect(await as(url, 'panel247_mail', "UPDATE mailboxes SET local_part = 'x'")).toMatch(/permission denied/);
  });

  it('never changes an existing role’s password unless told to, and says so', async () => {
    expect(secondRun.after).toBe(secondRun.before);
    expect(secondRun.stderr).toContain('panel247_mail exists: its password is unchanged');
    expect(secondRun.stderr).toContain('panel247_ftp exists: its password is unchanged');
  });

  it('refuses to run as a role that may not create roles, with the reason', async () => {
    const target = new URL(url);
    target.username = 'panel247_ftp';
    const refused = await run('psql', ['-X', '-q', '-d', target.toString(), '-f', SCRIPT]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 3 });
    expect((refused as { stderr: string }).stderr).toContain('run it as a superuser');
  });

  it('lets ProFTPD read the FTP views and nothing else', async () => {
    expect(await as(url, 'panel247_ftp', 'SELECT * FROM ftp_users_view')).toBe('rows: 0');
    expect(await as(url, 'panel247_ftp', 'SELECT * FROM sftp_keys_view')).toBe('rows: 0');
    expect(await as(url, 'panel247_ftp', 'SELECT * FROM ssh_keys')).toMatch(/permission denied/);
    expect(await as(url, 'panel247_ftp', 'SELECT * FROM mail_users_view')).toMatch(/permission denied/);
    expect(await as(url, 'panel247_ftp', 'SELECT * FROM sessions')).toMatch(/permission denied/);
  });
});
