import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CSRF_HEADER } from '@panel247/contract/constants';
import type { FtpAccount } from '@panel247/contract/ftp';
import type { SignonForm } from '@panel247/contract/signon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProFtpd, startProFtpd } from '../../../../scripts/daemons/proftpd.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { setSuspended } from '../support/suspension.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

const WEBFTP_KEY = 'webftp-integration-key-0123456789abcdef';

describe.each(DATABASE_KINDS)('FTP accounts served by a real ProFTPD (panel on %s)', (kind) => {
  let database: TestDatabase;
  let ftpd: ProFtpd;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  let hostingRoot: string;
  let dataDir: string;
  let usersFile: string;
  const domain = `ftp-${kind}.test`;

  beforeAll(async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'p247-ftpdb-'));
    dataDir = folder;
    chmodSync(folder, 0o777);
    database = await createTestDatabase(kind, { sqliteFile: path.join(folder, 'panel.sqlite') });
    // On SQLite ProFTPD reads the panel's copy of the accounts (drivers/ftp/ftp-users-copy.ts).
    usersFile = path.join(folder, 'ftp-users.sqlite');
    hostingRoot = mkdtempSync(path.join(tmpdir(), 'p247-www-'));
    chmodSync(hostingRoot, 0o755);
    account = await buildAccount(database.db, { domainName: domain, resources: { [domain]: { hasService: true } } });
    id = account.resources[domain] as number;
    t = await buildTestApp(kind, {
      database,
      config: {
        'hosting.root': hostingRoot,
        'hosting.webftpKey': WEBFTP_KEY,
        ...(kind === 'sqlite' ? { 'hosting.ftpUsersFile': usersFile } : {}),
      },
    });
    ftpd = await startProFtpd(kind === 'sqlite' ? { kind, file: usersFile } : { kind, url: database.url as string });
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await ftpd?.stop();
    await database?.destroy();
  });

  it('logs a new account in and lands its upload in its folder, owned by the web user', async () => {
    const { body } = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'web', password: 'ftp password 1', folder: 'public/uploads' },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    expect(body.data.ftp).toMatchObject({ user: `web@${domain}`, directorio: 'public/uploads', password: '' });
    const local = path.join(tmpdir(), `upload-${kind}.txt`);
    writeFileSync(local, 'hello over FTP');
    const upload = await ftpd.curl(`web@${domain}`, 'ftp password 1', ['-T', local], '/');
    expect(upload.code).toBe(0);
    const landed = path.join(hostingRoot, domain, 'public', 'uploads', `upload-${kind}.txt`);
    expect(readFileSync(landed, 'utf8')).toBe('hello over FTP');
    expect(statSync(landed).uid).toBe(33);
    const shown = await t.call<{ ftp: FtpAccount }>('GET', `service/${id}/ftp/${body.data.ftp.id}/`, {}, { cookie });
    expect(shown.body.data.ftp.password).toBe('ftp password 1');
  });

  it('lets the WebFTP log in with the credentials its one-time token redeems', async () => {
    const list = await t.call<{ ftps: FtpAccount[] }>('GET', `service/${id}/ftp/list/`, {}, { cookie });
    const web = list.body.data.ftps[0] as FtpAccount;
    const form = await t.call<SignonForm>('POST', `service/${id}/ftp/${web.id}/login/`, {}, { cookie });
    const redeemed = await t.call<{ user: string; password: string; host: string; port: number }>(
      'POST',
      'webftp/redeem/',
      { token: form.body.data.fields.token as string, key: WEBFTP_KEY },
    );
    expect(redeemed.body.data.host).toBe('127.0.0.1');
    const listing = await ftpd.curl(redeemed.body.data.user, redeemed.body.data.password, ['-l']);
    expect(listing.code).toBe(0);
    expect(listing.stdout).toContain(`upload-${kind}.txt`);
  });

  it('refuses a suspended service’s FTP logins, and lets them in once lifted', async () => {
    const list = await t.call<{ ftps: FtpAccount[] }>('GET', `service/${id}/ftp/list/`, {}, { cookie });
    const web = list.body.data.ftps[0] as FtpAccount;
    const suspend = async (on: boolean) => {
      await setSuspended(database.db, id, on);
      await t.services.ftp.loginsChanged({ id, domain });
    };
    expect((await ftpd.curl(web.user, 'ftp password 1', ['-l'])).code).toBe(0);
    await suspend(true);
    expect((await ftpd.curl(web.user, 'ftp password 1', ['-l'])).code).toBe(67);
    await suspend(false);
    expect((await ftpd.curl(web.user, 'ftp password 1', ['-l'])).code).toBe(0);
  });

  it('refuses the old password after a change, and any login after deletion', async () => {
    const list = await t.call<{ ftps: FtpAccount[] }>('GET', `service/${id}/ftp/list/`, {}, { cookie });
    const web = list.body.data.ftps[0] as FtpAccount;
    await t.call('POST', `service/${id}/ftp/${web.id}/changepassword/`, { password: 'ftp password 2' }, { cookie });
    expect((await ftpd.curl(web.user, 'ftp password 1', ['-l'])).code).toBe(67);
    expect((await ftpd.curl(web.user, 'ftp password 2', ['-l'])).code).toBe(0);
    await t.call('POST', `service/${id}/ftp/${web.id}/delete/`, {}, { cookie });
    expect((await ftpd.curl(web.user, 'ftp password 2', ['-l'])).code).toBe(67);
    expect(existsSync(path.join(hostingRoot, domain, 'public', 'uploads'))).toBe(true);
  });

  it('logs in with a password of exactly 72 bytes (what bcrypt reads), every byte of it counting', async () => {
    // 10 two-byte letters, shell and SQL characters, then plain letters: 20 + 5 + 47 = 72 bytes
    const password = `${'ñ'.repeat(10)};\`%"'${'p'.repeat(47)}`;
    expect(Buffer.byteLength(password)).toBe(72);
    const { body } = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'largo', password, folder: '' },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    expect((await ftpd.curl(`largo@${domain}`, password, ['-l'])).code).toBe(0);
    expect((await ftpd.curl(`largo@${domain}`, `${password.slice(0, -1)}q`, ['-l'])).code).toBe(67);
    const tooLong = await t.call(
      'POST',
      `service/${id}/ftp/${body.data.ftp.id}/changepassword/`,
      { password: `${password}x` },
      { cookie },
    );
    expect(tooLong.body.system.inputs).toEqual(['password']);
    expect((await ftpd.curl(`largo@${domain}`, password, ['-l'])).code).toBe(0);
  });

  /** `panel ftp sync --json` against this test's database and folders. */
  const ftpSync = async () => {
    let stdout = '';
    const code = await runCli(['ftp', 'sync', '--json'], {
      stdout: (text) => (stdout += text),
      stderr: () => undefined,
      readStdin: async () => '',
      env: {
        PANEL_DATA_DIR: dataDir,
        PANEL_HOSTING_ROOT: hostingRoot,
        PANEL_LOG_LEVEL: 'silent',
        PANEL_FTP_DRIVER: 'proftpd',
        ...(kind === 'sqlite' ? { PANEL_FTP_USERS_FILE: usersFile } : { PANEL_DATABASE_URL: database.url as string }),
      },
    });
    expect(code).toBe(0);
    return JSON.parse(stdout);
  };

  // Only SQLite deployments keep a copy file for ProFTPD (on PostgreSQL it reads the view).
  if (kind === 'sqlite') {
    it('`ftp sync` puts back a copy ProFTPD lost, and its logins work again', async () => {
      const password = `${'ñ'.repeat(10)};\`%"'${'p'.repeat(47)}`;
      expect((await ftpd.curl(`largo@${domain}`, password, ['-l'])).code).toBe(0);
      // an operator's mistake, or a restore that forgot the file
      rmSync(usersFile);
      expect((await ftpd.curl(`largo@${domain}`, password, ['-l'])).code).not.toBe(0);
      expect(await ftpSync()).toMatchObject({ missing: [`largo@${domain}`], extra: [], changed: [] });
      expect((await ftpd.curl(`largo@${domain}`, password, ['-l'])).code).toBe(0);
    });
  }

  it('`ftp sync` puts back a home folder that was moved away or given to another user, and logins work again', async () => {
    const created = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'casa', password: 'ftp password 3', folder: 'casa' },
      { cookie },
    );
    expect(created.body.system.errors).toEqual([]);
    const home = path.join(hostingRoot, domain, 'casa');
    expect((await ftpd.curl(`casa@${domain}`, 'ftp password 3', ['-l'])).code).toBe(0);
    // an operator moved the folder away: ProFTPD refuses the login (530)
    renameSync(home, `${home}.moved`);
    expect((await ftpd.curl(`casa@${domain}`, 'ftp password 3', ['-l'])).code).not.toBe(0);
    const first = await ftpSync();
    expect(first.homes).toEqual([{ login: `casa@${domain}`, home, problem: 'missing', repaired: true }]);
    expect(statSync(home).uid).toBe(33);
    expect((await ftpd.curl(`casa@${domain}`, 'ftp password 3', ['-l'])).code).toBe(0);
    // a restore put it back as root's: the login works but nothing can be uploaded
    chownSync(home, 0, 0);
    const second = await ftpSync();
    expect(second.homes).toEqual([{ login: `casa@${domain}`, home, problem: 'owner', repaired: true }]);
    expect(statSync(home)).toMatchObject({ uid: 33, gid: 33 });
    const local = path.join(tmpdir(), `casa-${kind}.txt`);
    writeFileSync(local, 'back home');
    expect((await ftpd.curl(`casa@${domain}`, 'ftp password 3', ['-T', local], '/')).code).toBe(0);
    expect(readFileSync(path.join(home, `casa-${kind}.txt`), 'utf8')).toBe('back home');
    expect((await ftpSync()).homes).toEqual([]);
  });

  it('shares its files with the file manager both ways, and a link planted over FTP leads the file manager nowhere', async () => {
    const login = `casa@${domain}`;
    const password = 'ftp password 3';
    const home = path.join(hostingRoot, domain, 'casa');
    // uploaded through the file manager (one chunk, as the web app sends it): FTP lists and reads it
    const content = 'from the file manager';
    const upload = await t.app.inject({
      method: 'PUT',
      url: `${t.config.basePath}service/${id}/files/upload/?path=casa&name=fm-${kind}.txt&offset=0&size=${content.length}`,
      headers: { [CSRF_HEADER]: '1', cookie, 'content-type': 'application/octet-stream' },
      payload: Buffer.from(content),
    });
    expect(upload.json().system.errors).toEqual([]);
    expect(statSync(path.join(home, `fm-${kind}.txt`))).toMatchObject({ uid: 33, gid: 33 });
    const listing = await ftpd.curl(login, password, ['-l']);
    expect(listing.stdout.split(/\r?\n/)).toContain(`fm-${kind}.txt`);
    expect((await ftpd.curl(login, password, [], `/fm-${kind}.txt`)).stdout).toBe(content);

    // The classic plant: SITE SYMLINK (mod_site_misc) wants its target to exist inside ProFTPD's
    // chroot, so the user first makes there the path of a folder outside (a neighbour's home, say);
    // the link's text, read outside the chroot (by the panel), leads to the real folder.
    // (ProFTPD itself refuses to make /etc or /lib in a chroot.)
    const outside = mkdtempSync(path.join(tmpdir(), 'p247-neighbour-'));
    writeFileSync(path.join(outside, 'secret.txt'), 'not yours');
    const decoy = path.join(tmpdir(), `decoy-${kind}.txt`);
    writeFileSync(decoy, 'decoy');
    const made = await ftpd.curl(login, password, ['--ftp-create-dirs', '-T', decoy], `${outside}/secret.txt`);
    expect(made.code).toBe(0);
    const planted = await ftpd.curl(login, password, [
      '-Q',
      `SITE SYMLINK ${outside} leak`,
      '-Q',
      `SITE SYMLINK ${outside}/secret.txt secret.txt`,
      '-l',
    ]);
    expect(planted.code).toBe(0);
    expect(readlinkSync(path.join(home, 'leak'))).toBe(outside);
    expect(readlinkSync(path.join(home, 'secret.txt'))).toBe(`${outside}/secret.txt`);
    const files = (params: Record<string, string>, call = 'list') =>
      t.call('GET', `service/${id}/files/${call}/`, params, { cookie });
    const into = await files({ path: 'casa/leak' });
    expect(into.body.system.errors).toEqual(['La ruta lleva fuera de la carpeta permitida']);
    expect((await files({ path: 'casa/leak/secret.txt' }, 'read')).body.system.valid).toBe(false);
    expect((await files({ path: 'casa/secret.txt' }, 'read')).body.system.valid).toBe(false);
    const download = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}service/${id}/files/download/?path=casa/secret.txt`,
      headers: { cookie },
    });
    expect(download.statusCode).not.toBe(200);
    expect(download.body).not.toContain('not yours');
    // the links are listed as links and deleted as links, their targets untouched
    const listed = await files({ path: 'casa' });
    expect(listed.body.system.errors).toEqual([]);
    for (const name of ['leak', 'secret.txt']) {
      const deleted = await t.call('POST', `service/${id}/files/delete/`, { path: `casa/${name}` }, { cookie });
      expect(deleted.body.system.errors).toEqual([]);
    }
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('not yours');
    expect(existsSync(path.join(home, 'leak'))).toBe(false);
    rmSync(outside, { recursive: true, force: true });
  });
});
