import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FtpAccount } from '@panel247/contract/ftp';
import type { SignonForm } from '@panel247/contract/signon';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { customerHome } from '../support/customer-files.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const WEBFTP_KEY = 'webftp-shared-key-0123456789abcdef';
const WEBMAIL_KEY = 'webmail-shared-key-0123456789abcdef';

describe.each(DATABASE_KINDS)('FTP API on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let id: number;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'p247-ftp-api-'));
    t = await buildTestApp(kind, {
      config: { 'hosting.root': root, 'hosting.webftpKey': WEBFTP_KEY, 'mail.webmailKey': WEBMAIL_KEY },
    });
    account = await buildAccount(t.database.db, {
      domainName: 'subir.test',
      resources: { 'subir.test': { hasService: true } },
    });
    other = await buildAccount(t.database.db, { domainName: 'otro-ftp.test' });
    id = account.resources['subir.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    // A symlink inside the home that points outside it.
    customerHome(path.join(root, 'subir.test'));
    symlinkSync('/etc', path.join(root, 'subir.test', 'escape'));
  });
  afterAll(() => t.close());

  const count = async () => (await t.database.db.selectFrom('ftp_accounts').select('id').execute()).length;

  it('creates an account with the domain appended, keeps the password sealed, and shows it on request', async () => {
    const { body } = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'Web', password: 'ftp secret 1', folder: 'public/' },
      { cookie },
    );
    expect(body.data.ftp).toMatchObject({ user: 'web@subir.test', directorio: 'public', password: '' });
    const row = await t.database.db.selectFrom('ftp_accounts').selectAll().executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$2y\$10\$/);
    expect(row.password_sealed).not.toContain('ftp secret 1');
    expect(row.home).toBe(path.join(root, 'subir.test', 'public'));
    const shown = await t.call<{ ftp: FtpAccount }>('GET', `service/${id}/ftp/${body.data.ftp.id}/`, {}, { cookie });
    expect(shown.body.data.ftp.password).toBe('ftp secret 1');
    const main = await t.call('GET', `service/${id}/ftp/main/`, {}, { cookie });
    expect(main.body.data).toMatchObject({ ftp: { host: 'ftp.subir.test', port: 21 } });
  });

  it.each([
    [{ ftpUser: 'averylonguser', password: 'ftp secret 1' }, ['ftpUser']],
    [{ ftpUser: 'we b', password: 'ftp secret 1' }, ['ftpUser']],
    [{ ftpUser: "o'neil", password: 'ftp secret 1' }, ['ftpUser']],
    [{ ftpUser: 'semi;colon', password: 'ftp secret 1' }, ['ftpUser']],
    [{ ftpUser: 'nl\n', password: 'ftp secret 1' }, ['ftpUser']],
    [{ ftpUser: 'ok', password: 'short' }, ['password']],
    [{ ftpUser: 'ok', password: 'ftp secret 1', folder: '../other' }, ['folder']],
    [{ ftpUser: 'ok', password: 'ftp secret 1', folder: 'a/../../b' }, ['folder']],
    [{ ftpUser: 'ok', password: 'ftp secret 1', folder: '/etc/passwd' }, ['folder']],
    [{ ftpUser: 'ok', password: 'ftp secret 1', folder: 'x`id`' }, ['folder']],
    [{ ftpUser: 'ok', password: 'ftp secret 1', folder: 'x\u0000y' }, ['folder']],
    [{ ftpUser: 'ok', password: 'ftp secret 1', folder: 'escape/inside' }, ['folder']],
    [{ ftpUser: 'x'.repeat(300), password: 'p'.repeat(300) }, ['ftpUser', 'password']],
    [{ ftpUser: '', password: '' }, ['ftpUser', 'password']],
  ])('refuses %o and writes nothing', async (params, inputs) => {
    const before = await count();
    const { body } = await t.call('POST', `service/${id}/ftp/create/`, params as Record<string, string>, { cookie });
    expect(body.system.inputs).toEqual(inputs);
    expect(await count()).toBe(before);
  });

  it('refuses a taken user, edits the folder, changes the password and deletes', async () => {
    const taken = await t.call(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'web', password: 'ftp secret 1' },
      { cookie },
    );
    expect(taken.body.system.inputs).toEqual(['ftpUser']);
    const list = await t.call<{ ftps: FtpAccount[] }>('GET', `service/${id}/ftp/list/`, {}, { cookie });
    const web = list.body.data.ftps[0] as FtpAccount;
    expect(web.password).toBe('');
    const moved = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/${web.id}/save/`,
      { folder: 'private/data' },
      { cookie },
    );
    expect(moved.body.data.ftp.directorio).toBe('private/data');
    const badMove = await t.call('POST', `service/${id}/ftp/${web.id}/save/`, { folder: 'escape' }, { cookie });
    expect(badMove.body.system.inputs).toEqual(['folder']);
    // Refused by the server's side after its row was written: the row is put back as it was.
    const after = await t.call<{ ftp: FtpAccount }>('GET', `service/${id}/ftp/${web.id}/`, {}, { cookie });
    expect(after.body.data.ftp.directorio).toBe('private/data');
    expect(
      (await t.call('POST', `service/${id}/ftp/${web.id}/changepassword/`, { password: 'x' }, { cookie })).body.system
        .inputs,
    ).toEqual(['password']);
    const removed = await t.call('POST', `service/${id}/ftp/${web.id}/delete/`, {}, { cookie });
    expect(removed.body.system.info).toEqual(['Cuenta FTP eliminada']);
  });

  it('answers another account’s service as not found, and follows service_ftp levels', async () => {
    expect(
      (await t.call('GET', `service/${other.resources['otro-ftp.test']}/ftp/list/`, {}, { cookie })).response
        .statusCode,
    ).toBe(404);
    const reader = await buildUser(t.database.db, account, 'ftp-reader', {
      'subir.test': { ...allKeys('disabled'), service: 'read', service_ftp: 'read' },
    });
    const none = await buildUser(t.database.db, account, 'ftp-none', {
      'subir.test': { ...allKeys('disabled'), service: 'read' },
    });
    const readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const noneCookie = await t.login(account.domainName, none.username, none.password);
    expect((await t.call('GET', `service/${id}/ftp/list/`, {}, { cookie: readerCookie })).response.statusCode).toBe(
      200,
    );
    expect(
      (
        await t.call(
          'POST',
          `service/${id}/ftp/create/`,
          { ftpUser: 'r', password: 'ftp secret 1' },
          { cookie: readerCookie },
        )
      ).response.statusCode,
    ).toBe(403);
    expect((await t.call('GET', `service/${id}/ftp/list/`, {}, { cookie: noneCookie })).response.statusCode).toBe(404);
  });

  it('opens WebFTP with a one-time token that only the WebFTP’s key redeems, once', async () => {
    const created = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'webftp', password: `it's "quoted" \\ 1`, folder: 'site' },
      { cookie },
    );
    const fid = created.body.data.ftp.id;
    const login = await t.call<SignonForm>(
      'POST',
      `service/${id}/ftp/${fid}/login/`,
      { initialDirectory: 'logs/' },
      { cookie },
    );
    expect(login.body.data).toMatchObject({
      action: '/webftp/',
      method: 'post',
      fields: { user: 'webftp@subir.test', initialDirectory: 'logs' },
    });
    expect(JSON.stringify(login.body.data)).not.toContain('quoted');
    const token = login.body.data.fields.token as string;

    const wrongKey = await t.call('POST', 'webftp/redeem/', { token, key: WEBMAIL_KEY });
    expect(wrongKey.response.statusCode).toBe(403);
    // a WebFTP token is not a WebMail token
    const otherKind = await t.call('POST', 'webmail/redeem/', { token, key: WEBMAIL_KEY });
    expect(otherKind.response.statusCode).toBe(404);

    const second = await t.call<SignonForm>('POST', `service/${id}/ftp/${fid}/login/`, {}, { cookie });
    const redeemed = await t.call('POST', 'webftp/redeem/', {
      token: second.body.data.fields.token as string,
      key: WEBFTP_KEY,
    });
    expect(redeemed.body.data).toEqual({
      user: 'webftp@subir.test',
      password: `it's "quoted" \\ 1`,
      host: '127.0.0.1',
      port: 21,
    });
    const again = await t.call('POST', 'webftp/redeem/', {
      token: second.body.data.fields.token as string,
      key: WEBFTP_KEY,
    });
    expect(again.response.statusCode).toBe(404);

    for (const initialDirectory of ['../up', '/etc', 'a\nb']) {
      const bad = await t.call('POST', `service/${id}/ftp/${fid}/login/`, { initialDirectory }, { cookie });
      expect(bad.body.system.inputs).toEqual(['initialDirectory']);
    }
    const noneUser = await buildUser(t.database.db, account, 'ftp-webftp-none', {
      'subir.test': { ...allKeys('disabled'), service: 'read' },
    });
    const noneCookie = await t.login(account.domainName, noneUser.username, noneUser.password);
    expect(
      (await t.call('POST', `service/${id}/ftp/${fid}/login/`, {}, { cookie: noneCookie })).response.statusCode,
    ).toBe(404);
  });

  const accountRow = (fid: number) =>
    t.database.db.selectFrom('ftp_accounts').selectAll().where('id', '=', fid).executeTakeFirst();

  it('refuses a reader’s folder change, password change and delete, changing nothing', async () => {
    const created = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'leido', password: 'ftp secret 1', folder: 'leido' },
      { cookie },
    );
    const fid = created.body.data.ftp.id;
    const before = await accountRow(fid);
    const reader = await buildUser(t.database.db, account, 'ftp-reader-2', {
      'subir.test': { ...allKeys('disabled'), service: 'read', service_ftp: 'read' },
    });
    const readerCookie = await t.login(account.domainName, reader.username, reader.password);
    for (const [call, params] of [
      [`ftp/${fid}/save/`, { folder: 'otra' }],
      [`ftp/${fid}/changepassword/`, { password: 'reader password' }],
      [`ftp/${fid}/delete/`, {}],
    ] as const) {
      const answer = await t.call('POST', `service/${id}/${call}`, params, { cookie: readerCookie });
      expect(answer.response.statusCode, call).toBe(403);
    }
    expect(await accountRow(fid)).toEqual(before);
  });

  it('shows a reader the accounts but neither a password nor a WebFTP sign-on: no permission, nothing revealed', async () => {
    const password = 'reader cannot see 1';
    const created = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'oculto', password, folder: 'oculto' },
      { cookie },
    );
    const fid = created.body.data.ftp.id;
    const reader = await buildUser(t.database.db, account, 'ftp-secret-reader', {
      'subir.test': { ...allKeys('disabled'), service: 'read', service_ftp: 'read' },
    });
    const readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const tokens = async () => (await t.database.db.selectFrom('signon_tokens').select('token_hash').execute()).length;
    const tokensBefore = await tokens();

    const list = await t.call<{ ftps: FtpAccount[] }>('GET', `service/${id}/ftp/list/`, {}, { cookie: readerCookie });
    expect(list.body.data.ftps.map((ftp) => ftp.user)).toContain('oculto@subir.test');
    // Every route that hands out the password or a sign-on, by each method it answers.
    for (const [method, call] of [
      ['GET', `ftp/${fid}/`],
      ['POST', `ftp/${fid}/`],
      ['POST', `ftp/${fid}/login/`],
    ] as const) {
      const answer = await t.call(method, `service/${id}/${call}`, {}, { cookie: readerCookie });
      expect(answer.response.statusCode, call).toBe(403);
      expect(answer.body.system.errors, call).toEqual(['No tienes permiso para realizar esta acción']);
      expect(answer.body.data, call).toBeNull();
      expect(answer.response.body, call).not.toContain(password);
    }
    expect(await tokens()).toBe(tokensBefore);
    // The FTP right (write) is what opens them.
    const shown = await t.call<{ ftp: FtpAccount }>('GET', `service/${id}/ftp/${fid}/`, {}, { cookie });
    expect(shown.body.data.ftp.password).toBe(password);
  });

  it('answers another account’s FTP account id through the own service id as not found, changing nothing', async () => {
    const otherId = other.resources['otro-ftp.test'] as number;
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    const theirs = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${otherId}/ftp/create/`,
      { ftpUser: 'suyo', password: 'their ftp secret', folder: '' },
      { cookie: otherCookie },
    );
    const fid = theirs.body.data.ftp.id;
    const before = await accountRow(fid);
    const tokens = async () => (await t.database.db.selectFrom('signon_tokens').select('token_hash').execute()).length;
    const tokensBefore = await tokens();
    for (const [call, params] of [
      [`ftp/${fid}/`, {}],
      [`ftp/${fid}/save/`, { folder: 'robado' }],
      [`ftp/${fid}/changepassword/`, { password: 'stolen password' }],
      [`ftp/${fid}/login/`, {}],
      [`ftp/${fid}/delete/`, {}],
    ] as const) {
      const answer = await t.call('POST', `service/${id}/${call}`, params, { cookie });
      expect(answer.response.statusCode, call).toBe(404);
      expect(JSON.stringify(answer.body.data)).not.toContain('their ftp secret');
    }
    expect(await accountRow(fid)).toEqual(before);
    expect(await tokens()).toBe(tokensBefore);
  });

  it.each([
    ['a backtick', 'pass`id`word'],
    ['a semicolon', 'pass;rm -rf /;'],
    ['a percent sign', 'pass%word%00'],
    ['quotes and a backslash', `it's "x" \\ ok`],
    ['72 bytes', 'p'.repeat(72)],
    ['accented letters within 72 bytes', 'ñ'.repeat(36)],
  ])('takes a password with %s as it is: sealed, hashed, shown back', async (_, password) => {
    const user = `h${Math.random().toString(36).slice(2, 8)}`;
    const created = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: user, password, folder: '' },
      { cookie },
    );
    expect(created.body.system.errors).toEqual([]);
    const fid = created.body.data.ftp.id;
    const row = await accountRow(fid);
    expect(await bcrypt.compare(password, (row?.password_hash ?? '').replace(/^\$2y\$/, '$2b$'))).toBe(true);
    const shown = await t.call<{ ftp: FtpAccount }>('GET', `service/${id}/ftp/${fid}/`, {}, { cookie });
    expect(shown.body.data.ftp.password).toBe(password);
    await t.call('POST', `service/${id}/ftp/${fid}/delete/`, {}, { cookie });
  });

  it.each([
    ['a newline', 'pass\nword 123', 'password'],
    ['a carriage return', 'pass\rword 123', 'password'],
    ['300 characters', 'p'.repeat(300), 'password'],
    ['73 bytes (bcrypt reads 72)', 'p'.repeat(73), 'password'],
    ['37 accented letters (74 bytes)', 'ñ'.repeat(37), 'password'],
  ])('refuses a password with %s on create and on change, half-creating nothing', async (_, password, field) => {
    const before = await count();
    const created = await t.call('POST', `service/${id}/ftp/create/`, { ftpUser: 'hostil', password }, { cookie });
    expect(created.body.system.inputs).toEqual([field]);
    expect(await count()).toBe(before);
    expect(
      (await t.database.db.selectFrom('ftp_accounts').select('id').where('login', '=', 'hostil@subir.test').execute())
        .length,
    ).toBe(0);
    const existing = (await t.database.db.selectFrom('ftp_accounts').select('id').executeTakeFirstOrThrow()).id;
    const rowBefore = await accountRow(existing);
    const changed = await t.call('POST', `service/${id}/ftp/${existing}/changepassword/`, { password }, { cookie });
    expect(changed.body.system.inputs).toEqual([field]);
    expect(await accountRow(existing)).toEqual(rowBefore);
  });

  it('explains the 72-byte limit in the user’s language (Spanish here)', async () => {
    const { body } = await t.call(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'largo', password: 'p'.repeat(73) },
      { cookie },
    );
    expect(body.system.errors).toEqual([
      'La contraseña FTP tiene como máximo 72 bytes (las letras con acento cuentan doble)',
    ]);
  });
});
