import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FtpAccount, FtpMainData } from '@panel247/contract/ftp';
import type { SshKey } from '@panel247/contract/sftp-keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { type ProFtpd, startProFtpd } from '../../../../scripts/daemons/proftpd.ts';
import { buildAccount, resourceIdsAfter } from '../support/factories.ts';
import { runPanel } from '../support/panel-cli.ts';
import { freeUidRange, nestedSettings, type Passwd, passwd, removeSystemUsers } from '../support/system-users.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const run = promisify(execFile);
const BASE_ID = 100_000 + Math.floor(Math.random() * 800_000);

/**
 * SFTP with keys added in the panel, against Debian's ProFTPD (mod_sftp, the deploy/ template)
 * and OpenSSH's `sftp` client, with real system users: the service's own login by key lands in
 * its home and writes as its user; an FTP account logs in by password and by key in its folder
 * only; a key removed in the panel refuses the next login; one service's key opens nothing of
 * another's. Every account made is removed at the end.
 */
describe('SFTP logins by password and by the keys added in the panel', () => {
  let database: TestDatabase;
  let t: TestApp;
  let ftpd: ProFtpd;
  let cookie: string;
  let dataDir: string;
  let homes: string;
  let keys: string;
  const ACCOUNT = `sftp${BASE_ID}.test`;
  const A = { domain: `a${BASE_ID}.test`, user: `p247s${BASE_ID + 1}`, id: BASE_ID + 1 };
  const B = { domain: `b${BASE_ID}.test`, user: `p247s${BASE_ID + 2}`, id: BASE_ID + 2 };
  const home = (service: { domain: string }) => path.join(homes, service.domain);
  const api = <T>(service: { id: number }, route: string, params: Record<string, string> = {}) =>
    t.call<T>('POST', `service/${service.id}/ftp/${route}`, params, { cookie });
  /** A key pair made by ssh-keygen: the private key's file and the public key's line. */
  const keyPair = async (name: string, type = 'ed25519') => {
    const file = path.join(keys, name);
    await run('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', `${name}@portatil`, '-f', file]);
    return { file, line: readFileSync(`${file}.pub`, 'utf8').trim() };
  };

  beforeAll(async () => {
    if (process.getuid?.() !== 0) throw new Error('this test makes system users: run it as root');
    for (const binary of ['useradd', 'userdel', 'getent']) requireBinary(binary, 'passwd');
    requireBinary('ssh-keygen', 'openssh-client');
    const range = await freeUidRange();
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-sftpdata-'));
    chmodSync(dataDir, 0o700);
    homes = mkdtempSync(path.join(tmpdir(), 'p247-sftphomes-'));
    chmodSync(homes, 0o755);
    keys = mkdtempSync(path.join(tmpdir(), 'p247-sftpkeys-'));
    const usersFile = path.join(dataDir, 'ftp-users.sqlite');
    database = await createTestDatabase('sqlite', { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    const settings = {
      dataDir,
      secretKey: TEST_SECRET_KEY.toString('hex'),
      logLevel: 'silent',
      'hosting.root': homes,
      'hosting.ftpUsersFile': usersFile,
      'serviceUsers.driver': 'system',
      'serviceUsers.uidMin': range.min,
      'serviceUsers.uidMax': range.max,
    };
    const configFile = path.join(dataDir, 'panel247.json');
    writeFileSync(configFile, JSON.stringify(nestedSettings(settings)));
    t = await buildTestApp('sqlite', { database, config: settings });
    const account = await buildAccount(database.db, { domainName: ACCOUNT, resources: {} });
    await resourceIdsAfter(database.db, account.accountId, BASE_ID);
    for (const service of [A, B]) {
      const made = await runPanel({ PANEL_CONFIG_FILE: configFile }, [
        'resource',
        'add',
        '--domain',
        ACCOUNT,
        '--reference',
        service.domain,
        '--service',
        '--grant-user',
        account.username,
        '--json',
      ]);
      expect(made.code, made.stderr).toBe(0);
      expect(JSON.parse(made.stdout).id).toBe(service.id);
    }
    cookie = await t.login(ACCOUNT, account.username, account.password);
    ftpd = await startProFtpd({ kind: 'sqlite', file: usersFile });
  });

  afterAll(async () => {
    await ftpd?.stop();
    await t?.close();
    await database?.destroy();
    await removeSystemUsers([A.user, B.user]);
    for (const folder of [dataDir, homes, keys]) if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('logs the service in by the key added in the panel, in its home, writing as its user', async () => {
    const main = (await api<FtpMainData>(A, 'main/')).body.data;
    expect(main.sftp).toMatchObject({ host: `ftp.${A.domain}`, login: A.domain });
    const laptop = await keyPair('a-own');
    const refusedBefore = await ftpd.sftp(A.domain, { key: laptop.file }, ['pwd']);
    expect(refusedBefore.code).toBe(255);

    const added = await api<{ key: SshKey }>(A, 'keys/add/', { key: laptop.line, ftpId: '' });
    expect(added.body.system.valid, added.body.system.errors.join()).toBe(true);
    const shown = await run('ssh-keygen', ['-l', '-f', `${laptop.file}.pub`]);
    expect(shown.stdout).toContain(added.body.data.key.fingerprint);

    writeFileSync(path.join(keys, 'subida.txt'), 'por sftp\n');
    const session = await ftpd.sftp(A.domain, { key: laptop.file }, [
      'pwd',
      `put ${path.join(keys, 'subida.txt')} subida.txt`,
      'cd ..',
      'pwd',
      'ls -1 /',
    ]);
    expect(session.code, session.stderr).toBe(0);
    // chrooted: "/" is the home, and ".." of it is itself
    expect(session.stdout).toMatch(/Remote working directory: \/\n[\s\S]*Remote working directory: \/\n/);
    const a = (await passwd(A.user)) as Passwd;
    const uploaded = statSync(path.join(home(A), 'subida.txt'));
    expect([uploaded.uid, uploaded.gid]).toEqual([a.uid, a.gid]);
    expect(readFileSync(path.join(home(A), 'subida.txt'), 'utf8')).toBe('por sftp\n');

    // A's key opens nothing of B's, and B's own login has no key yet
    expect((await ftpd.sftp(B.domain, { key: laptop.file }, ['pwd'])).code).toBe(255);
  });

  it('logs an FTP account in by its password and by its key, in its folder only', async () => {
    const made = await api<{ ftp: FtpAccount }>(A, 'create/', {
      ftpUser: 'disenio',
      password: 'sftp secret 1',
      folder: 'web/imagenes',
    });
    expect(made.body.system.valid, made.body.system.errors.join()).toBe(true);
    const login = made.body.data.ftp.user;
    writeFileSync(path.join(keys, 'foto.txt'), 'foto\n');
    const byPassword = await ftpd.sftp(login, { password: 'sftp secret 1' }, [
      `put ${path.join(keys, 'foto.txt')} foto.txt`,
      'ls -1',
    ]);
    expect(byPassword.code, byPassword.stderr).toBe(0);
    expect(statSync(path.join(home(A), 'web', 'imagenes', 'foto.txt')).isFile()).toBe(true);
    expect(byPassword.stdout).not.toContain('subida.txt');
    expect((await ftpd.sftp(login, { password: 'not the password' }, ['pwd'])).code).toBe(255);

    const desk = await keyPair('a-ftp', 'rsa');
    const added = await api<{ key: SshKey }>(A, 'keys/add/', { key: desk.line, ftpId: String(made.body.data.ftp.id) });
    expect(added.body.data.key).toMatchObject({ algorithm: 'ssh-rsa', bits: 3072, login });
    const byKey = await ftpd.sftp(login, { key: desk.file }, ['ls -1']);
    expect(byKey.code, byKey.stderr).toBe(0);
    expect(byKey.stdout).toContain('foto.txt');
    // the account's key is not the service's
    expect((await ftpd.sftp(A.domain, { key: desk.file }, ['pwd'])).code).toBe(255);
  });

  it('refuses the next login once the key is removed in the panel', async () => {
    const listed = (await api<{ keys: SshKey[] }>(A, 'keys/')).body.data.keys;
    const own = listed.find((key) => key.ftpId === null) as SshKey;
    expect((await ftpd.sftp(A.domain, { key: path.join(keys, 'a-own') }, ['pwd'])).code).toBe(0);
    const removed = await api(A, `keys/${own.id}/delete/`);
    expect(removed.body.system.valid).toBe(true);
    const after = await ftpd.sftp(A.domain, { key: path.join(keys, 'a-own') }, ['pwd']);
    expect(after.code).toBe(255);
    expect(after.stderr).toMatch(/Permission denied/);
  });
});
