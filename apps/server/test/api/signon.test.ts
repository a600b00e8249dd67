import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { filesPagePath } from '@panel247/contract/files';
import type { FtpAccount } from '@panel247/contract/ftp';
import type { Mailbox } from '@panel247/contract/mail';
import type { SignonForm } from '@panel247/contract/signon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { SignonTokens } from '../../src/modules/signon/signon-tokens.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const WEBMAIL_KEY = 'webmail-signon-key-0123456789abcdef';
const WEBFTP_KEY = 'webftp-signon-key-0123456789abcdefgh';
const PHPMYADMIN_KEY = 'phpmyadmin-signon-key-0123456789abcd';
const RACERS = 8;

describe.each(DATABASE_KINDS)('sign-on tokens on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        'mail.webmailKey': WEBMAIL_KEY,
        'hosting.webftpKey': WEBFTP_KEY,
        'databases.phpmyadminKey': PHPMYADMIN_KEY,
        'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-signon-')),
      },
    });
    account = await buildAccount(t.database.db, { domainName: 'ficha.test' });
    id = account.resources['ficha.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  it('gives the read level no sign-on and no stored password (a reader, or a read token): no permission', async () => {
    const box = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'lector', password: 'mailbox secret 1' },
      { cookie },
    );
    const ftp = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'lector', password: 'ftp secret for 1' },
      { cookie },
    );
    const ddbb = await t.call<{ ddbb: { id: number } }>(
      'POST',
      `service/${id}/ddbb/create/`,
      { password: 'database secret 1' },
      { cookie },
    );
    const routes: ['GET' | 'POST', string][] = [
      ['GET', `service/${id}/correo/${box.body.data.correo.id}/login/`],
      ['POST', `service/${id}/ftp/${ftp.body.data.ftp.id}/login/`],
      ['GET', `service/${id}/ftp/${ftp.body.data.ftp.id}/`],
      ['GET', `service/${id}/ddbb/${ddbb.body.data.ddbb.id}/login/`],
      ['GET', `service/${id}/ddbb/${ddbb.body.data.ddbb.id}/`],
      ['POST', `service/${id}/webcontructorlogin/`],
    ];
    const reader = await buildUser(t.database.db, account, 'signon-reader', {
      'ficha.test': {
        ...allKeys('disabled'),
        service: 'read',
        servicemail: 'read',
        servicemail_accounts: 'read',
        service_ftp: 'read',
        service_ddbb: 'read',
      },
    });
    const readerCookie = await t.login(account.domainName, reader.username, reader.password);
    // The owner's token with a read scope: the owner may, the token may not.
    const made = await t.call<{ token: string }>(
      'POST',
      'user/apitokens/create/',
      { name: 'reader script', expiresInDays: '7', scope: `${id}:read`, password: account.password },
      { cookie },
    );
    const bearer = { authorization: `Bearer ${made.body.data.token}` };
    for (const as of [{ cookie: readerCookie }, { headers: bearer }]) {
      for (const [method, url] of routes) {
        const { response, body } = await t.call(method, url, { subdomain: '*' }, as);
        expect(response.statusCode, url).toBe(403);
        expect(body.system.errors, url).toEqual(['No tienes permiso para realizar esta acción']);
        expect(body.data, url).toBeNull();
        expect(response.body, url).not.toMatch(/secret/);
      }
    }
    expect(await t.database.db.selectFrom('signon_tokens').select('kind').execute()).toEqual([]);
    // With the write level the same calls answer.
    for (const [method, url] of routes.filter(([, url]) => !url.includes('webcontructorlogin'))) {
      expect((await t.call(method, url, {}, { cookie })).response.statusCode, url).toBe(200);
    }
  });

  it(`redeems a WebMail token exactly once when ${RACERS} redeems race`, async () => {
    const box = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'carrera', password: 'a good password' },
      { cookie },
    );
    for (let round = 0; round < 3; round++) {
      const login = await t.call<SignonForm>(
        'GET',
        `service/${id}/correo/${box.body.data.correo.id}/login/`,
        {},
        { cookie },
      );
      expect(Object.keys(login.body.data.fields).sort()).toEqual(['_action', '_p247_token', '_task', '_user']);
      const token = login.body.data.fields._p247_token as string;
      const answers = await Promise.all(
        Array.from({ length: RACERS }, () => t.call('POST', 'webmail/redeem/', { token, key: WEBMAIL_KEY })),
      );
      const codes = answers.map((a) => a.response.statusCode).sort();
      expect(codes).toEqual([200, ...Array<number>(RACERS - 1).fill(404)]);
      expect(answers.find((a) => a.response.statusCode === 200)?.body.data).toEqual({ user: 'carrera@ficha.test' });
    }
  });

  it(`redeems a WebFTP token exactly once when ${RACERS} redeems race`, async () => {
    const created = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'carrera', password: 'ftp secret 1', folder: '' },
      { cookie },
    );
    const login = await t.call<SignonForm>(
      'POST',
      `service/${id}/ftp/${created.body.data.ftp.id}/login/`,
      {},
      { cookie },
    );
    const token = login.body.data.fields.token as string;
    const answers = await Promise.all(
      Array.from({ length: RACERS }, () => t.call('POST', 'webftp/redeem/', { token, key: WEBFTP_KEY })),
    );
    expect(answers.filter((a) => a.response.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.response.statusCode === 404)).toHaveLength(RACERS - 1);
  });

  it('takes a token once under direct concurrent takes, never as another kind, never after expiry', async () => {
    let now = 1_000_000;
    const tokens = new SignonTokens(t.database.db, () => now);
    const token = await tokens.issue('phpmyadmin', 42);
    const taken = await Promise.all(Array.from({ length: 16 }, () => tokens.take('phpmyadmin', token)));
    expect(taken.filter((subject) => subject === 42)).toHaveLength(1);
    expect(taken.filter((subject) => subject === undefined)).toHaveLength(15);

    // A wrong kind spends the token too: a guessed kind gives no second chance.
    const mistaken = await tokens.issue('webftp', 7);
    expect(await tokens.take('webmail', mistaken)).toBeUndefined();
    expect(await tokens.take('webftp', mistaken)).toBeUndefined();

    const late = await tokens.issue('webmail', 9);
    now += 61;
    expect(await tokens.take('webmail', late)).toBeUndefined();
    // expired tokens are swept on every redeem
    await tokens.issue('webmail', 10);
    now += 61;
    await tokens.take('webmail', 'unknown');
    const left = await t.database.db
      .selectFrom('signon_tokens')
      .select('token_hash')
      .where('expires_at', '<', 2_000_000)
      .execute();
    expect(left).toEqual([]);
  });
});

describe.each(DATABASE_KINDS)('sign-on buttons with nothing set up to receive them (%s)', (kind) => {
  let t: TestApp;
  let cookie: string;
  let id: number;

  beforeAll(async () => {
    // The embedded default: no WebMail, WebFTP or phpMyAdmin keys, so nothing could redeem a token.
    t = await buildTestApp(kind, { config: { 'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-signon-')) } });
    const account = await buildAccount(t.database.db, { domainName: 'sin-destino.test' });
    id = account.resources['sin-destino.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  it('says WebMail and phpMyAdmin are not set up instead of opening a dead page (WebFTP opens the file manager), and issues no token', async () => {
    const box = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'buzon', password: 'a good password' },
      { cookie },
    );
    const ftp = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'subida', password: 'a good password 1' },
      { cookie },
    );
    const ddbb = await t.call<{ ddbb: { id: number } }>(
      'POST',
      `service/${id}/ddbb/create/`,
      { password: 'a database secret 1' },
      { cookie },
    );
    const calls: [string, string][] = [
      [`service/${id}/correo/${box.body.data.correo.id}/login/`, 'WebMail is not set up on this server'],
      [`service/${id}/ddbb/${ddbb.body.data.ddbb.id}/login/`, 'phpMyAdmin is not set up on this server'],
    ];
    for (const [url, message] of calls) {
      const { response, body } = await t.call('POST', url, { language: 'en' }, { cookie });
      expect(response.statusCode).toBe(409);
      expect(body.system.errors).toEqual([message]);
    }
    // Without a WebFTP of the provider's, the panel's own file manager is the WebFTP.
    const webftp = await t.call<SignonForm>(
      'POST',
      `service/${id}/ftp/${ftp.body.data.ftp.id}/login/`,
      { initialDirectory: '/' },
      { cookie },
    );
    expect(webftp.body.data).toEqual({
      action: filesPagePath(id),
      method: 'get',
      fields: { ftp: String(ftp.body.data.ftp.id), path: '' },
    });
    expect(await t.database.db.selectFrom('signon_tokens').select('kind').execute()).toEqual([]);
  });
});
