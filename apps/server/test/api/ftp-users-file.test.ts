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
 * ProFTPD's copy of the accounts (PANEL_FTP_USERS_FILE, for panels on SQLite): written inside every
 * change, which rolls back when the copy cannot be written; `ftp sync` rewrites it and reports drift.
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

  it('rolls every change back when the copy cannot be written, and says so', async () => {
    const before = await rows();
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
        [`ftp/${fid}/delete/`, {}],
      ];
      for (const [call, params] of calls) {
        const { response, body } = await t.call('POST', `service/${id}/${call}`, params, { cookie });
        expect(response.statusCode, call).toBe(502);
        expect(body.system.errors).toEqual([
          'No se pudo actualizar el servidor FTP: no se ha cambiado nada. Inténtalo más tarde.',
        ]);
      }
      expect(await rows()).toEqual(before);
      // no temporary file left behind
      expect(readdirSync(dataDir).filter((name) => name.includes('.tmp'))).toEqual([]);
    } finally {
      repairCopy();
    }
  });

  it('`ftp sync` rewrites the copy from the database and reports what had drifted', async () => {
    // no copy at all: every login is missing
    const first = await panel(['ftp', 'sync']);
    expect(first).toMatchObject({ file: usersFile, missing: ['uno@copia.test'], extra: [], changed: [] });
    expect(copy()).toEqual(await asCopy());
    expect(await panel(['ftp', 'sync'])).toMatchObject({ missing: [], extra: [], changed: [] });

    // a copy edited behind the panel's back
    const file = new SQLite(usersFile);
    file.prepare("UPDATE ftp_users_view SET passwd = '$2y$10$stale' WHERE userid = 'uno@copia.test'").run();
    file
      .prepare('INSERT INTO ftp_users_view VALUES (?, ?, 33, 33, ?, ?)')
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
