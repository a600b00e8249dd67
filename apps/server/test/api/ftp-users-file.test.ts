import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FtpAccount } from '@panel247/contract/ftp';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS } from '../support/test-database.ts';

interface CopyRow {
  userid: string;
  passwd: string;
  homedir: string;
}

/**
 * ProFTPD's copy of the accounts (PANEL_FTP_USERS_FILE, for panels on SQLite): written by every
 * change's job before the call answers; a change whose copy cannot be written is kept and
 * retried, and the customer told; `ftp sync` rewrites it and reports drift.
 * Runs on both databases: the code path is the same wherever the panel's rows live.
 */
describe.each(DATABASE_KINDS)('FTP users file on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  let dataDir: string;
  let usersFile: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-ftp-file-'));
    usersFile = path.join(dataDir, 'ftp-users.sqlite');
    const root = path.join(dataDir, 'homes');
    // file-based, so the CLI (its own process state) opens the same database
    const database = await createTestDatabase(kind, { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    t = await buildTestApp(kind, {
      config: { 'hosting.root': root, 'hosting.ftpUsersFile': usersFile },
      database,
    });
    env = {
      PANEL_DATA_DIR: dataDir,
      PANEL_FTP_USERS_FILE: usersFile,
      PANEL_HOSTING_ROOT: root,
      PANEL_LOG_LEVEL: 'silent',
      ...(kind === 'postgres' ? { PANEL_DATABASE_URL: database.url as string } : {}),
    };
    account = await buildAccount(t.database.db, {
      domainName: 'copia.test',
      resources: { 'copia.test': { hasService: true } },
    });
    id = account.resources['copia.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t.close();
    await t.database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const copy = (): CopyRow[] => {
    const file = new SQLite(usersFile, { readonly: true });
    try {
      return file.prepare('SELECT userid, passwd, homedir FROM ftp_users_view ORDER BY userid').all() as CopyRow[];
    } finally {
      file.close();
    }
  };
  const rows = () =>
    t.database.db.selectFrom('ftp_accounts').select(['login', 'password_hash', 'home']).orderBy('login').execute();
  const asCopy = async () =>
    (await rows()).map((row) => ({ userid: row.login, passwd: row.password_hash, homedir: row.home }));
  /** A folder where the copy should be: the rename onto it fails, even for root. */
  const breakCopy = () => {
    rmSync(usersFile, { force: true });
    mkdirSync(usersFile);
    writeFileSync(path.join(usersFile, 'keep'), '');
  };
  const repairCopy = () => rmSync(usersFile, { recursive: true, force: true });
  const panel = async (args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...args, '--json'], {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      readStdin: async () => '',
      env,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    return JSON.parse(stdout) as { file: string; missing: string[]; extra: string[]; changed: string[] };
  };

  it('holds every change as soon as the call answers', async () => {
    const created = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'uno', password: 'ftp secret 1', folder: 'web' },
      { cookie },
    );
    expect(created.body.system.errors).toEqual([]);
    expect(copy()).toEqual(await asCopy());
    const fid = created.body.data.ftp.id;
    await t.call('POST', `service/${id}/ftp/${fid}/changepassword/`, { password: 'ftp secret 2' }, { cookie });
    await t.call('POST', `service/${id}/ftp/${fid}/save/`, { folder: 'otra' }, { cookie });
    expect(copy()).toEqual(await asCopy());
    expect(copy()[0]?.homedir).toMatch(/copia\.test\/otra$/);
  });

  it('keeps every change while the copy cannot be written, says so, and writes it on "try again"', async () => {
    const fid = (
      await t.database.db
        .selectFrom('ftp_accounts')
        .select('id')
        .where('login', '=', 'uno@copia.test')
        .executeTakeFirstOrThrow()
    ).id;
    breakCopy();
    try {
      const calls: [string, Record<string, string>][] = [
        ['ftp/create/', { ftpUser: 'dos', password: 'ftp secret 3', folder: '' }],
        [`ftp/${fid}/changepassword/`, { password: 'ftp secret 4' }],
        [`ftp/${fid}/save/`, { folder: 'movida' }],
      ];
      for (const [call, params] of calls) {
        const { response, body } = await t.call('POST', `service/${id}/${call}`, params, { cookie });
        expect(response.statusCode, call).toBe(200);
        // Done in the panel, kept, and retried: the envelope names the work and says it failed so far.
        expect(body.system.job, call).toMatchObject({ status: 'failed' });
        expect(body.system.info, call).toContain(
          'Hecho en el panel, pero el servidor aún no ha podido aplicarlo. Se volverá a intentar; puedes reintentarlo ahora.',
        );
      }
      expect((await rows()).map((row) => row.login)).toEqual(['dos@copia.test', 'uno@copia.test']);
      const main = await t.call<{ applying: unknown }>('GET', `service/${id}/ftp/main/`, undefined, { cookie });
      expect(main.body.data.applying).toMatchObject({ state: 'failing', reason: 'users_file' });
      // no temporary file left behind
      expect(readdirSync(dataDir).filter((name) => name.includes('.tmp'))).toEqual([]);
    } finally {
      repairCopy();
    }
    const retried = await t.call<{ applying: unknown }>('POST', `service/${id}/ftp/apply/`, {}, { cookie });
    expect(retried.body.system.info).toEqual([
      'Todos los cambios de las cuentas FTP están aplicados en el servidor FTP',
    ]);
    expect(retried.body.data.applying).toBeNull();
    expect(copy()).toEqual(await asCopy());
    expect(copy()[1]?.homedir).toMatch(/copia\.test\/movida$/);
  });

  it('`ftp sync` rewrites the copy from the database and reports what had drifted', async () => {
    // no copy at all: every login is missing
    rmSync(usersFile, { force: true });
    const first = await panel(['ftp', 'sync']);
    expect(first).toMatchObject({
      file: usersFile,
      missing: ['dos@copia.test', 'uno@copia.test'],
      extra: [],
      changed: [],
    });
    expect(copy()).toEqual(await asCopy());
    expect(await panel(['ftp', 'sync'])).toMatchObject({ missing: [], extra: [], changed: [] });

    // a copy edited behind the panel's back
    const file = new SQLite(usersFile);
    file.prepare("UPDATE ftp_users_view SET passwd = '$2y$10$stale' WHERE userid = 'uno@copia.test'").run();
    file
      .prepare('INSERT INTO ftp_users_view (userid, passwd, uid, gid, homedir, shell) VALUES (?, ?, 33, 33, ?, ?)')
      .run('intruso@copia.test', '$2y$10$x', '/tmp', '/bin/false');
    file.close();
    // A dry run reports the same drift and leaves the copy as it is.
    const before = copy();
    expect(await panel(['ftp', 'sync', '--dry-run'])).toMatchObject({
      missing: [],
      extra: ['intruso@copia.test'],
      changed: ['uno@copia.test'],
      rewritten: false,
    });
    expect(copy()).toEqual(before);
    const drifted = await panel(['ftp', 'sync']);
    expect(drifted).toMatchObject({ missing: [], extra: ['intruso@copia.test'], changed: ['uno@copia.test'] });
    expect(copy()).toEqual(await asCopy());
  });
});
