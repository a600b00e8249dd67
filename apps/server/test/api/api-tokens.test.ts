import { hash } from 'node:crypto';
import type { ApiTokenCreatedData, ApiTokenListData, ApiTokenResourcesData } from '@panel247/contract/api-tokens';
import type { Envelope } from '@panel247/contract/envelope';
import type { PermissionListData } from '@panel247/contract/permissions';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

type Call = [method: 'GET' | 'POST', path: (id: number) => string];

/** One read per area, each reached through the guard with a resource id in the path. */
const AREA_READS: Call[] = [
  ['POST', (id) => `permission/${id}/`],
  ['GET', (id) => `domain/${id}/`],
  ['GET', (id) => `service/${id}/`],
  ['GET', (id) => `service/${id}/dns/list/`],
  ['GET', (id) => `service/${id}/dns/export/`],
  ['GET', (id) => `service/${id}/mail/list/`],
  ['GET', (id) => `service/${id}/ftp/list/`],
  ['GET', (id) => `service/${id}/ddbb/list/`],
  ['GET', (id) => `service/${id}/redirection/list/`],
  ['GET', (id) => `service/${id}/subdomain/list/`],
];

/** One change per area, with parameters that would pass: only the guard may refuse them. */
const AREA_CHANGES: [path: (id: number) => string, params: Record<string, string>][] = [
  [(id) => `domain/${id}/toggle/block/`, {}],
  [(id) => `service/${id}/dns/create/`, { type: 'A', zona: 'matrix', value: '203.0.113.7', ttl: '0', priority: '0' }],
  [(id) => `service/${id}/correo/create/`, { name: 'matrix', password: 'a long passphrase here X1' }],
  [(id) => `service/${id}/ftp/create/`, { ftpUser: 'matrix', password: 'another long passphrase X1' }],
  [(id) => `service/${id}/ddbb/create/`, { password: 'a database passphrase X1' }],
  [
    (id) => `service/${id}/redirection/create/`,
    { subDomain: 'matrix', urlRedir: 'https://example.com/', redirType: '301' },
  ],
];

describe.each(DATABASE_KINDS)('API tokens on %s', (kind) => {
  let t: TestApp;
  let mine: BuiltAccount;
  let theirs: BuiltAccount;
  let cookie: string;
  let inScope: number;
  let outOfScope: number;
  let foreign: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'limits.loginPerAccount': 50, 'limits.loginPerIp': 500 } });
    mine = await buildAccount(t.database.db, {
      domainName: 'tokens.test',
      resources: {
        'tokens.test': { hasDomain: true, hasService: true, hasMail: true },
        'other-own.test': { hasDomain: true, hasService: true, hasMail: true },
      },
    });
    theirs = await buildAccount(t.database.db, { domainName: 'their-tokens.test' });
    inScope = mine.resources['tokens.test'] as number;
    outOfScope = mine.resources['other-own.test'] as number;
    foreign = theirs.resources['their-tokens.test'] as number;
    cookie = await t.login(mine.domainName, mine.username, mine.password);
  });
  afterAll(() => t.close());

  /** A script's call: the token alone, no cookie, no CSRF header. */
  async function withToken<T = unknown>(
    app: TestApp,
    token: string,
    method: 'GET' | 'POST',
    path: string,
    params: Record<string, string> = {},
    remoteAddress = '127.0.0.1',
  ) {
    const url = `${app.config.basePath}${path}`;
    const headers = { authorization: `Bearer ${token}` };
    const response =
      method === 'GET'
        ? await app.app.inject({ method, url, headers, remoteAddress })
        : await app.app.inject({
            method,
            url,
            headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams(params).toString(),
            remoteAddress,
          });
    const body = response.headers['content-type']?.toString().includes('json')
      ? (response.json() as Envelope<T>)
      : undefined;
    return { response, body };
  }

  async function create(
    params: Record<string, string | string[]>,
    session = cookie,
    password = mine.password,
  ): Promise<Envelope<ApiTokenCreatedData>> {
    return (
      await t.call<ApiTokenCreatedData>(
        'POST',
        'user/apitokens/create/',
        { name: 'deploy script', expiresInDays: '30', password, ...params },
        { cookie: session },
      )
    ).body;
  }

  async function token(scope: string[], app = t): Promise<string> {
    const body = await create({ scope });
    expect(body.system.valid, body.system.errors.join()).toBe(true);
    void app;
    return body.data.token;
  }

  it('needs the password to create one; shows the token once and keeps only its sha256', async () => {
    const wrong = await create({ scope: [`${inScope}:read`] }, cookie, 'not the password');
    expect(wrong.system).toMatchObject({ valid: false, inputs: ['password'] });
    expect(await t.database.db.selectFrom('api_tokens').select('id').execute()).toHaveLength(0);

    const made = await create({ scope: [`${inScope}:read`] });
    expect(made.system.valid).toBe(true);
    expect(made.data.token).toMatch(/^p247_[A-Za-z0-9_-]{43}$/);
    expect(made.data.item).toMatchObject({
      name: 'deploy script',
      scope: [{ resourceId: inScope, reference: 'tokens.test', level: 'read' }],
      lastUsedAt: null,
      lastUsedIp: '',
    });
    expect(made.data.item.expiresAt - made.data.item.createdAt).toBe(30 * 86_400);

    const row = await t.database.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', made.data.item.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hash('sha256', made.data.token, 'hex'));
    expect(JSON.stringify(row)).not.toContain(made.data.token.slice(5));

    // Never shown again: neither the list nor anything else gives it back.
    const list = await t.call<ApiTokenListData>('GET', 'user/apitokens/', {}, { cookie });
    expect(list.body.data.tokens.map((item) => item.id)).toContain(made.data.item.id);
    expect(JSON.stringify(list.body)).not.toContain(made.data.token.slice(5));
  });

  it('refuses a scope beyond the user: another account’s resource, an unknown one, write where the user only reads', async () => {
    for (const scope of [`${foreign}:read`, '999999:read']) {
      const refused = await create({ scope: [scope] });
      expect(refused.system).toMatchObject({ valid: false, inputs: ['scope'] });
    }
    const reader = await buildUser(t.database.db, mine, 'reader', {
      'tokens.test': allKeys('read'),
    });
    const readerCookie = await t.login(mine.domainName, reader.username, reader.password);
    const tooMuch = await create({ scope: [`${inScope}:write`] }, readerCookie, reader.password);
    expect(tooMuch.system).toMatchObject({ valid: false, inputs: ['scope'] });
    expect(tooMuch.system.errors[0]).toMatch(/solo puedes consultar/);
    const outside = await create({ scope: [`${outOfScope}:read`] }, readerCookie, reader.password);
    expect(outside.system).toMatchObject({ valid: false, inputs: ['scope'] });
    const fine = await create({ scope: [`${inScope}:read`] }, readerCookie, reader.password);
    expect(fine.system.valid).toBe(true);
    const bads: Record<string, string | string[]>[] = [
      { scope: [] },
      { scope: ['x:read'] },
      { expiresInDays: '0' },
      { name: 'a\r\nb' },
    ];
    for (const bad of bads) {
      const answer = await create({ scope: [`${inScope}:read`], ...bad });
      expect(answer.system.valid, JSON.stringify(bad)).toBe(false);
    }
  });

  it('offers for a new token each resource the user sees, write only where the user may change it', async () => {
    const own = await t.call<ApiTokenResourcesData>('GET', 'user/apitokens/resources/', {}, { cookie });
    expect(own.body.data.resources).toEqual(
      [
        { id: outOfScope, reference: 'other-own.test', level: 'write' },
        { id: inScope, reference: 'tokens.test', level: 'write' },
      ].sort((a, b) => a.reference.localeCompare(b.reference)),
    );
    const viewer = await buildUser(t.database.db, mine, 'viewer', { 'tokens.test': allKeys('read') });
    const viewerCookie = await t.login(mine.domainName, viewer.username, viewer.password);
    const offered = await t.call<ApiTokenResourcesData>(
      'GET',
      'user/apitokens/resources/',
      {},
      { cookie: viewerCookie },
    );
    expect(offered.body.data.resources).toEqual([{ id: inScope, reference: 'tokens.test', level: 'read' }]);
    const secret = await token([`${inScope}:read`]);
    expect((await withToken(t, secret, 'GET', 'user/apitokens/resources/')).response.statusCode).toBe(403);
  });

  it('reaches the same routes as the cookie, each area of its resource, and nothing else: the unknown id’s answer', async () => {
    const secret = await token([`${inScope}:write`]);
    for (const [method, path] of AREA_READS) {
      const unknown = await withToken(t, secret, method, path(999_999));
      expect(unknown.response.statusCode, path(999_999)).toBe(404);
      const own = await withToken(t, secret, method, path(inScope));
      expect(own.response.statusCode, `${path(inScope)}: ${own.body?.system.errors}`).toBe(200);
      for (const id of [outOfScope, foreign]) {
        const other = await withToken(t, secret, method, path(id));
        expect(other.response.statusCode, path(id)).toBe(404);
        expect(other.body, path(id)).toEqual(unknown.body);
      }
    }
    // The same calls with the cookie reach both own resources: the token is what narrows them.
    const viaCookie = await t.call('GET', `service/${outOfScope}/dns/list/`, {}, { cookie });
    expect(viaCookie.response.statusCode).toBe(200);

    const list = await withToken<PermissionListData>(t, secret, 'GET', 'permission/list/');
    expect(list.body?.data.permissions.map((entry) => entry.id)).toEqual([inScope]);
    const info = await withToken(t, secret, 'GET', 'user/info/');
    expect(info.response.statusCode).toBe(200);
  });

  it('changes in every area: 404 outside the scope or the account, 403 with a read token', async () => {
    const writer = await token([`${inScope}:write`]);
    const reader = await token([`${inScope}:read`]);
    const records = async () => (await t.database.db.selectFrom('dns_records').select('id').execute()).length;
    const before = await records();
    for (const [path, params] of AREA_CHANGES) {
      const unknown = await withToken(t, writer, 'POST', path(999_999), params);
      expect(unknown.response.statusCode, path(999_999)).toBe(404);
      for (const id of [outOfScope, foreign]) {
        const other = await withToken(t, writer, 'POST', path(id), params);
        expect(other.response.statusCode, path(id)).toBe(404);
        expect(other.body, path(id)).toEqual(unknown.body);
      }
      const readOnly = await withToken(t, reader, 'POST', path(inScope), params);
      expect(readOnly.response.statusCode, path(inScope)).toBe(403);
    }
    expect(await records()).toBe(before);
  });

  it('a read token reads and gets 403 on a change; a write token changes', async () => {
    const reader = await token([`${inScope}:read`]);
    const writer = await token([`${inScope}:write`]);
    const record = { type: 'A', zona: 'api', value: '203.0.113.5', ttl: '0', priority: '0' };
    const refused = await withToken(t, reader, 'POST', `service/${inScope}/dns/create/`, record);
    expect(refused.response.statusCode).toBe(403);
    const done = await withToken(t, writer, 'POST', `service/${inScope}/dns/create/`, record);
    expect(done.response.statusCode, done.body?.system.errors.join()).toBe(200);
    const elsewhere = await withToken(t, writer, 'POST', `service/${outOfScope}/dns/create/`, record);
    expect(elsewhere.response.statusCode).toBe(404);
  });

  it('never manages the login: password, second factor, sessions and tokens need the session', async () => {
    const secret = await token([`${inScope}:write`]);
    for (const [method, path] of [
      ['GET', 'user/twofactor/'],
      ['GET', 'user/sessions/'],
      ['GET', 'user/apitokens/'],
      ['POST', 'user/apitokens/create/'],
      ['POST', 'user/apitokens/revokeall/'],
      ['POST', 'user/changepass/'],
      ['POST', 'user/logout/'],
    ] as const) {
      const answer = await withToken(t, secret, method, path);
      expect(answer.response.statusCode, path).toBe(403);
    }
  });

  it('refuses a malformed or unknown token with 401, and a cookie call still needs its CSRF header', async () => {
    // Only a Bearer header spares the CSRF header; any Authorization header is a token's call.
    for (const header of ['Bearer nope', `Bearer p247_${'A'.repeat(43)}`, 'Basic abc']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `${t.config.basePath}service/${inScope}/dns/list/`,
        headers: { authorization: header, ...(header.startsWith('Basic') ? { 'x-dd-request': '1', cookie } : {}) },
      });
      expect(response.statusCode, header).toBe(401);
    }
    const noHeader = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}service/${inScope}/dns/list/`,
      headers: { cookie },
    });
    expect(noHeader.statusCode).toBe(403);
  });

  it('records the last use and its address', async () => {
    const made = await create({ scope: [`${inScope}:read`] });
    await withToken(t, made.data.token, 'GET', `service/${inScope}/dns/list/`, {}, '198.51.100.23');
    const list = await t.call<ApiTokenListData>('GET', 'user/apitokens/', {}, { cookie });
    const item = list.body.data.tokens.find((entry) => entry.id === made.data.item.id);
    expect(item).toMatchObject({ lastUsedAt: Math.floor(t.clock.now() / 1000), lastUsedIp: '198.51.100.23' });
  });

  it('a revoked or expired token is refused at once on every instance sharing the database', async () => {
    const second = await buildTestApp(kind, { database: t.database });
    try {
      const made = await create({ scope: [`${inScope}:read`] });
      const path = `service/${inScope}/dns/list/`;
      for (const app of [t, second])
        expect((await withToken(app, made.data.token, 'GET', path)).response.statusCode).toBe(200);
      const revoked = await t.call('POST', `user/apitokens/${made.data.item.id}/revoke/`, {}, { cookie });
      expect(revoked.body.system.valid).toBe(true);
      for (const app of [second, t])
        expect((await withToken(app, made.data.token, 'GET', path)).response.statusCode).toBe(401);
      // Revoking it again, or another user's token, is the unknown id's answer.
      expect(
        (await t.call('POST', `user/apitokens/${made.data.item.id}/revoke/`, {}, { cookie })).response.statusCode,
      ).toBe(404);

      const short = await create({ scope: [`${inScope}:read`], expiresInDays: '1' });
      for (const app of [t, second])
        expect((await withToken(app, short.data.token, 'GET', path)).response.statusCode).toBe(200);
      t.clock.advance(86_400);
      second.clock.advance(86_400);
      for (const app of [second, t])
        expect((await withToken(app, short.data.token, 'GET', path)).response.statusCode).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('revokes every token of the user at once, after the same re-authentication as creating one; mailed', async () => {
    // Earlier tests moved the clock past the session's lifetime.
    cookie = await t.login(mine.domainName, mine.username, mine.password);
    const account = await buildAccount(t.database.db, { domainName: 'tokens-all.test' });
    await t.database.db
      .updateTable('users')
      .set({ email: 'owner@tokens-all.test' })
      .where('id', '=', account.userId)
      .execute();
    const session = await t.login(account.domainName, account.username, account.password);
    const resource = String(account.resources['tokens-all.test']);
    const path = `service/${resource}/dns/list/`;
    const made: string[] = [];
    for (const name of ['one', 'two']) {
      const body = await create({ name, scope: [`${resource}:read`] }, session, account.password);
      expect(body.system.valid, body.system.errors.join()).toBe(true);
      made.push(body.data.token);
    }
    // Another user's token is not the caller's to end.
    const othersToken = await token([`${inScope}:read`]);
    const revokeAll = (params: Record<string, string>, password = account.password) =>
      t.call<{ revoked: number }>('POST', 'user/apitokens/revokeall/', { password, ...params }, { cookie: session });
    const stillWork = async () =>
      Promise.all(made.map(async (secret) => (await withToken(t, secret, 'GET', path)).response.statusCode));

    // A token cannot end the tokens: only the person, with the session.
    expect((await withToken(t, made[0] as string, 'POST', 'user/apitokens/revokeall/')).response.statusCode).toBe(403);
    expect((await revokeAll({}, 'not the password')).body.system.inputs).toEqual(['password']);
    expect(await stillWork()).toEqual([200, 200]);

    const done = await revokeAll({});
    expect(done.body.data).toEqual({ revoked: 2 });
    expect(done.body.system.info).toEqual(['Se han revocado todos tus tokens de API']);
    expect(await stillWork()).toEqual([401, 401]);
    expect(
      (await t.call<ApiTokenListData>('GET', 'user/apitokens/', {}, { cookie: session })).body.data.tokens,
    ).toEqual([]);
    expect((await withToken(t, othersToken, 'GET', `service/${inScope}/dns/list/`)).response.statusCode).toBe(200);
    const mail = await t.database.db
      .selectFrom('outbox')
      .select(['kind', 'subject', 'body'])
      .where('to_address', '=', 'owner@tokens-all.test')
      .where('kind', '=', 'security_api_tokens_revoked_all')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('[Test Hosting] Todos los tokens de API revocados');
    expect(mail.body).toContain('Se han revocado todos los tokens de API (2)');

    // With a second factor, ending them needs a current one too, like creating one.
    const seconds = () => Math.floor(t.clock.now() / 1000);
    const setup = await t.call<{ secret: string }>('POST', 'user/twofactor/setup/', {}, { cookie: session });
    const secret = setup.body.data.secret;
    await t.call(
      'POST',
      'user/twofactor/enable/',
      { code: generateSync({ secret, epoch: seconds() }) },
      { cookie: session },
    );
    t.clock.advance(30 - (seconds() % 30));
    const noCode = await revokeAll({});
    expect(noCode.body.system.inputs).toEqual(['code']);
    const withCode = await revokeAll({ code: generateSync({ secret, epoch: seconds() }) });
    expect(withCode.body.data).toEqual({ revoked: 0 });
  });

  it('a password change ends the user’s tokens along with the sessions; other users keep theirs', async () => {
    // Earlier tests moved the clock past the session's lifetime.
    cookie = await t.login(mine.domainName, mine.username, mine.password);
    const account = await buildAccount(t.database.db, { domainName: 'tokens-pass.test' });
    const session = await t.login(account.domainName, account.username, account.password);
    const resource = String(account.resources['tokens-pass.test']);
    const made = await create({ scope: [`${resource}:read`] }, session, account.password);
    expect(made.system.valid, made.system.errors.join()).toBe(true);
    const othersToken = await token([`${inScope}:read`]);
    const path = `service/${resource}/dns/list/`;
    expect((await withToken(t, made.data.token, 'GET', path)).response.statusCode).toBe(200);

    const changed = await t.call(
      'POST',
      'user/changepass/',
      { actualPassword: account.password, password: 'a brand new passphrase 7' },
      { cookie: session },
    );
    expect(changed.body.system.valid, changed.body.system.errors.join()).toBe(true);
    expect((await withToken(t, made.data.token, 'GET', path)).response.statusCode).toBe(401);
    expect(
      await t.database.db.selectFrom('api_tokens').select('id').where('user_id', '=', account.userId).execute(),
    ).toEqual([]);
    expect((await withToken(t, othersToken, 'GET', `service/${inScope}/dns/list/`)).response.statusCode).toBe(200);
  });

  it('with two-factor authentication on, creating a token needs a current code as well as the password', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'tokens-2fa.test' });
    const session = await t.login(account.domainName, account.username, account.password);
    const seconds = () => Math.floor(t.clock.now() / 1000);
    const setup = await t.call<{ secret: string }>('POST', 'user/twofactor/setup/', {}, { cookie: session });
    const secret = setup.body.data.secret;
    const enabled = await t.call(
      'POST',
      'user/twofactor/enable/',
      { code: generateSync({ secret, epoch: seconds() }) },
      { cookie: session },
    );
    expect(enabled.body.system.valid).toBe(true);
    t.clock.advance(30 - (seconds() % 30));
    const resource = String(account.resources['tokens-2fa.test']);

    const noCode = await create({ scope: [`${resource}:read`] }, session, account.password);
    expect(noCode.system).toMatchObject({ valid: false, inputs: ['code'] });
    const current = generateSync({ secret, epoch: seconds() });
    const wrongCode = String((Number(current) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await create({ scope: [`${resource}:read`], code: wrongCode }, session, account.password);
    expect(wrong.system).toMatchObject({ valid: false, inputs: ['code'] });
    const noPassword = await create({ scope: [`${resource}:read`], code: current }, session, 'wrong password');
    expect(noPassword.system).toMatchObject({ valid: false, inputs: ['password'] });
    expect(
      await t.database.db.selectFrom('api_tokens').select('id').where('user_id', '=', account.userId).execute(),
    ).toHaveLength(0);
    const ok = await create({ scope: [`${resource}:read`], code: current }, session, account.password);
    expect(ok.system.valid, ok.system.errors.join()).toBe(true);
  });

  it('with a passkey as the only second factor, a token takes a passkey signature, never the password alone', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'tokens-passkey.test' });
    const session = await t.login(account.domainName, account.username, account.password);
    // app.inject's requests come to Host "localhost:80" over http: that is the relying party.
    const laptop = new SoftAuthenticator('http://localhost');
    const registration = await t.call<{ options: { challenge: string; rp: { id?: string } } }>(
      'POST',
      'user/passkeys/register/options/',
      { password: account.password },
      { cookie: session },
    );
    const added = await t.call(
      'POST',
      'user/passkeys/register/',
      { name: 'laptop', credential: laptop.create(registration.body.data.options) },
      { cookie: session },
    );
    expect(added.body.system.errors).toEqual([]);
    const signed = async (forgery = {}) =>
      laptop.get(
        (
          await t.call<{ options: { challenge: string; rpId: string } }>(
            'POST',
            'user/passkeys/reauth/options/',
            {},
            { cookie: session },
          )
        ).body.data.options,
        forgery,
      );
    const resource = String(account.resources['tokens-passkey.test']);
    const rows = () =>
      t.database.db.selectFrom('api_tokens').select('id').where('user_id', '=', account.userId).execute();

    const passwordAlone = await create({ scope: [`${resource}:read`] }, session, account.password);
    expect(passwordAlone.system).toMatchObject({ valid: false, inputs: ['credential'] });
    const wrongPassword = await create({ scope: [`${resource}:read`], credential: await signed() }, session, 'wrong-1');
    expect(wrongPassword.system).toMatchObject({ valid: false, inputs: ['password'] });
    const elsewhere = await create(
      { scope: [`${resource}:read`], credential: await signed({ origin: 'https://evil.example' }) },
      session,
      account.password,
    );
    expect(elsewhere.system).toMatchObject({ valid: false, inputs: ['credential'] });
    expect(await rows()).toHaveLength(0);

    const made = await create({ scope: [`${resource}:read`], credential: await signed() }, session, account.password);
    expect(made.system.valid, made.system.errors.join()).toBe(true);
    expect(await rows()).toHaveLength(1);
  });

  it('e-mails the user when a token is created and when it is revoked: name, scope, expiry, address; never the secret', async () => {
    // Earlier tests moved the clock past the session's lifetime.
    cookie = await t.login(mine.domainName, mine.username, mine.password);
    await t.database.db
      .updateTable('users')
      .set({ email: 'owner@tokens.test' })
      .where('id', '=', mine.userId)
      .execute();
    const made = await create({ name: 'backup job', scope: [`${inScope}:write`, `${outOfScope}:read`] });
    expect(made.system.valid, made.system.errors.join()).toBe(true);
    const revoked = await t.call('POST', `user/apitokens/${made.data.item.id}/revoke/`, {}, { cookie });
    expect(revoked.body.system.valid).toBe(true);

    const mails = await t.database.db
      .selectFrom('outbox')
      .select(['kind', 'subject', 'body'])
      .where('to_address', '=', 'owner@tokens.test')
      .orderBy('id')
      .execute();
    expect(mails.map((mail) => mail.kind)).toEqual(['security_api_token_created', 'security_api_token_revoked']);
    expect(mails[0]?.subject).toBe('[Test Hosting] Token de API creado');
    expect(mails[1]?.subject).toBe('[Test Hosting] Token de API revocado');
    const expires = new Date(made.data.item.expiresAt * 1000).toISOString().replace('T', ' ').slice(0, 16);
    for (const mail of mails) {
      expect(mail.body).toContain('«backup job»');
      expect(mail.body).toContain('tokens.test (escritura), other-own.test (lectura)');
      expect(mail.body).toContain(`${expires} (UTC)`);
      expect(mail.body).toContain('127.0.0.1');
      expect(mail.body).toContain(`${mine.username} de tokens.test`);
      expect(`${mail.subject}\n${mail.body}`).not.toContain(made.data.token.slice(5));
    }
    // In the user's language: the same change asked for in English is written in English.
    const english = await t.call<ApiTokenCreatedData>(
      'POST',
      'user/apitokens/create/',
      { name: 'en', expiresInDays: '7', password: mine.password, scope: [`${inScope}:read`], language: 'en' },
      { cookie },
    );
    expect(english.body.system.valid).toBe(true);
    const last = await t.database.db
      .selectFrom('outbox')
      .select(['subject', 'body'])
      .where('to_address', '=', 'owner@tokens.test')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.subject).toBe('[Test Hosting] API token created');
    expect(last.body).toContain('tokens.test (read)');
    expect(last.body).not.toContain(english.body.data.token.slice(5));
  });

  it('lists an expired token until the purge, which deletes it past the days kept, once across instances', async () => {
    const second = await buildTestApp(kind, { database: t.database });
    try {
      cookie = await t.login(mine.domainName, mine.username, mine.password);
      const shortLived = await create({ name: 'short lived', scope: [`${inScope}:read`], expiresInDays: '1' });
      const longLived = await create({ name: 'long lived', scope: [`${inScope}:read`], expiresInDays: '365' });
      for (const app of [t, second]) app.clock.advance(86_400 + 10 * 86_400);
      cookie = await t.login(mine.domainName, mine.username, mine.password);
      const listed = await t.call<ApiTokenListData>('GET', 'user/apitokens/', {}, { cookie });
      const expired = listed.body.data.tokens.find((item) => item.id === shortLived.data.item.id);
      expect(expired?.expiresAt).toBeLessThan(Math.floor(t.clock.now() / 1000));
      // Expired ten days ago: kept (listed as expired) while the purge keeps 30 days.
      expect(await t.services.apiTokens.purgeExpired(30)).toBe(0);

      for (const app of [t, second]) app.clock.advance(30 * 86_400);
      const cutoff = Math.floor(t.clock.now() / 1000) - 30 * 86_400;
      const due = await t.database.db.selectFrom('api_tokens').select('id').where('expires_at', '<', cutoff).execute();
      expect(due.map((row) => row.id)).toContain(shortLived.data.item.id);
      // Both instances at once: the rows go once, whichever instance deletes them.
      const removed = await Promise.all([
        t.services.apiTokens.purgeExpired(30),
        second.services.apiTokens.purgeExpired(30),
      ]);
      expect(removed[0] + removed[1]).toBe(due.length);
      const left = await t.database.db.selectFrom('api_tokens').select('id').execute();
      expect(left.map((row) => row.id)).not.toContain(shortLived.data.item.id);
      expect(left.map((row) => row.id)).toContain(longLived.data.item.id);
      cookie = await t.login(mine.domainName, mine.username, mine.password);
      const after = await t.call<ApiTokenListData>('GET', 'user/apitokens/', {}, { cookie });
      expect(after.body.data.tokens.map((item) => item.id)).not.toContain(shortLived.data.item.id);
    } finally {
      await second.close();
    }
  });
});
