import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext, CommandGroup, ParsedArgs } from '../../src/cli/command.ts';
import { brandCommands } from '../../src/cli/commands/brand.command.ts';
import { userCommands } from '../../src/cli/commands/user.command.ts';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

interface CreationOptions {
  challenge: string;
  rp: { id: string; name: string };
  user: { name: string };
  excludeCredentials?: { id: string }[];
}
interface RequestOptions {
  challenge: string;
  rpId: string;
  allowCredentials?: { id: string }[];
  userVerification?: string;
}
interface LoginAnswer {
  domainID?: number;
  secondFactor?: 'totp' | 'passkey';
  passkey?: true;
  loginToken?: string;
  setupSecondFactor?: true;
}
interface PasskeyItem {
  id: number;
  name: string;
  backedUp: boolean;
  createdAt: number;
  lastUsedAt: number | null;
}

// app.inject's requests come to Host "localhost:80" over http: that is the relying party.
const ORIGIN = 'http://localhost';

describe.each(DATABASE_KINDS)('passkeys on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: { 'limits.loginPerAccount': 5, 'limits.loginPerIp': 500 },
      captureLogs: true,
    });
  });
  afterAll(() => t.close());

  const seconds = () => Math.floor(t.clock.now() / 1000);
  const cookieOf = (response: { cookies: { name: string; value: string }[] }) => {
    const cookie = response.cookies.find((c) => c.name === 'p247_sid');
    return cookie ? `p247_sid=${cookie.value}` : undefined;
  };

  async function cli(group: CommandGroup, name: string, values: ParsedArgs['values'], positionals: string[] = []) {
    const command = group.commands.find((c) => c.name === name);
    if (!command) throw new Error(`no command ${name}`);
    const admin = new AdminService(t.database.db, new LocalEventBus(), seconds);
    return command.run({ admin } as CommandContext, await command.parse({ values, positionals, io: {} as never }));
  }

  const registerOptions = async (cookie: string, password: string, factor: Record<string, string> = {}) =>
    t.call<{ options: CreationOptions }>(
      'POST',
      'user/passkeys/register/options/',
      { password, ...factor },
      { cookie },
    );
  const reauthOptions = async (cookie: string) =>
    (await t.call<{ options: RequestOptions }>('POST', 'user/passkeys/reauth/options/', {}, { cookie })).body.data
      .options;
  /** A signature by `key` over a fresh re-authentication challenge: a current factor. */
  const signedBy = async (key: SoftAuthenticator, cookie: string) => ({
    credential: key.get(await reauthOptions(cookie)),
  });

  /**
   * Registers the authenticator's credential under `name`; returns the list item. A user who has
   * passkeys already confirms with one of them (`confirmWith`).
   */
  async function register(
    account: BuiltAccount,
    cookie: string,
    authenticator: SoftAuthenticator,
    name: string,
    confirmWith?: SoftAuthenticator,
    /** A code (TOTP or recovery) as the current factor instead. */
    code?: string,
  ) {
    const factor: Record<string, string> = confirmWith ? await signedBy(confirmWith, cookie) : code ? { code } : {};
    const options = await registerOptions(cookie, account.password, factor);
    expect(options.body.system.valid).toBe(true);
    const added = await t.call<PasskeyItem>(
      'POST',
      'user/passkeys/register/',
      { name, credential: authenticator.create(options.body.data.options) },
      { cookie },
    );
    expect(added.body.system.errors).toEqual([]);
    return added.body.data;
  }

  const passwordStep = (account: BuiltAccount) =>
    t.call<LoginAnswer>('POST', 'user/login/', {
      domainName: account.domainName,
      username: account.username,
      password: account.password,
    });
  const loginOptions = (loginToken: string) =>
    t.call<{ options: RequestOptions }>('POST', 'user/login/passkey/options/', { loginToken });
  const loginWith = (loginToken: string, credential: string) =>
    t.call<LoginAnswer>('POST', 'user/login/passkey/', { loginToken, credential });

  it('registers several named passkeys after the password, refusing a wrong origin, relying party or challenge', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'register.test' });
    const cookie = await t.login(account.domainName, account.username, account.password);
    await cli(userCommands, 'email', { domain: 'register.test', user: 'admin', email: 'owner@register.test' });
    expect((await t.call('GET', 'user/passkeys/', {}, { cookie })).body.data).toEqual({ passkeys: [] });

    // A session alone cannot add a way in: the password first.
    const noPassword = await registerOptions(cookie, 'not the password');
    expect(noPassword.body.system.inputs).toEqual(['password']);

    const key = new SoftAuthenticator(ORIGIN);
    const first = await registerOptions(cookie, account.password);
    const options = first.body.data.options;
    expect(options.rp).toEqual({ id: 'localhost', name: 'Test Hosting' });
    expect(options.user.name).toBe('admin@register.test');
    expect(options.challenge).toMatch(/^[\w-]{22,}$/);

    // A phishing page's origin, or a credential made for another site: refused, and each answer
    // uses up its challenge.
    const forged = [
      { origin: 'https://register.test.evil.example' },
      { rpId: 'evil.example' },
      { type: 'webauthn.get' },
    ];
    let challenge = options;
    for (const forgery of forged) {
      const refused = await t.call(
        'POST',
        'user/passkeys/register/',
        { name: 'Laptop', credential: key.create(challenge, forgery) },
        { cookie },
      );
      expect(refused.body.system.inputs).toEqual(['credential']);
      expect(refused.body.system.errors).toEqual([
        'La llave de acceso no se ha aceptado o el inicio ha caducado. Vuelve a empezar.',
      ]);
      challenge = (await registerOptions(cookie, account.password)).body.data.options;
    }
    // An answer to an older challenge (a replay) is refused too.
    const replay = await t.call(
      'POST',
      'user/passkeys/register/',
      { name: 'Laptop', credential: key.create(options) },
      { cookie },
    );
    expect(replay.body.system.inputs).toEqual(['credential']);
    // That attempt used up the pending challenge as well.
    challenge = (await registerOptions(cookie, account.password)).body.data.options;

    const added = await t.call<PasskeyItem>(
      'POST',
      'user/passkeys/register/',
      { name: 'Laptop', credential: key.create(challenge) },
      { cookie },
    );
    expect(added.body.system.info).toEqual(['Llave de acceso añadida']);
    expect(added.body.data).toMatchObject({ name: 'Laptop', backedUp: false, lastUsedAt: null });

    // The same credential twice is refused; another authenticator is a second passkey.
    const again = await registerOptions(cookie, account.password, await signedBy(key, cookie));
    expect(again.body.data.options.excludeCredentials?.map((c) => c.id)).toEqual([key.id]);
    const twice = await t.call(
      'POST',
      'user/passkeys/register/',
      { name: 'Laptop again', credential: key.create(again.body.data.options) },
      { cookie },
    );
    expect(twice.body.system.errors).toEqual(['Esta llave de acceso ya está registrada']);
    await register(account, cookie, new SoftAuthenticator(ORIGIN), 'Phone', key);

    const list = await t.call<{ passkeys: PasskeyItem[] }>('GET', 'user/passkeys/', {}, { cookie });
    expect(list.body.data.passkeys.map((p) => p.name)).toEqual(['Laptop', 'Phone']);

    // Bad input gets a clear error, not a crash.
    const garbage = await t.call('POST', 'user/passkeys/register/', { name: 'X', credential: '{not json' }, { cookie });
    expect(garbage.body.system.inputs).toEqual(['credential']);
    const noName = await t.call('POST', 'user/passkeys/register/', { name: ' ', credential: '{}' }, { cookie });
    expect(noName.body.system.inputs).toContain('name');

    const mails = await t.database.db
      .selectFrom('outbox')
      .select(['kind', 'subject', 'body'])
      .where('to_address', '=', 'owner@register.test')
      .orderBy('id')
      .execute();
    expect(mails.map((m) => m.kind)).toEqual(['security_passkey_added', 'security_passkey_added']);
    expect(mails[0]?.subject).toBe('[Test Hosting] Llave de acceso añadida');
    expect(mails[0]?.body).toContain('«Laptop»');
  });

  it('with TOTP on, adds a passkey only with a current code (or recovery code) as well as the password', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'totp-add.test' });
    const cookie = await t.login(account.domainName, account.username, account.password);
    const setup = await t.call<{ secret: string }>('POST', 'user/twofactor/setup/', {}, { cookie });
    const secret = setup.body.data.secret;
    const code = () => generateSync({ secret, epoch: seconds() });
    const enabled = await t.call<{ recoveryCodes: string[] }>(
      'POST',
      'user/twofactor/enable/',
      { code: code() },
      { cookie },
    );
    const recoveryCodes = enabled.body.data.recoveryCodes;
    t.clock.advance(30);
    const key = new SoftAuthenticator(ORIGIN);
    const stored = () =>
      t.database.db.selectFrom('user_passkeys').select('name').where('user_id', '=', account.userId).execute();

    // The password alone (the finding: a passkey that then logs in without the code) is refused,
    // and no registration challenge is issued, so no credential can be handed in.
    const passwordAlone = await registerOptions(cookie, account.password);
    expect(passwordAlone.body.system.inputs).toEqual(['code']);
    expect(passwordAlone.body.system.errors).toEqual([
      'Escribe el código de la aplicación o un código de recuperación',
    ]);
    const noChallenge = await t.call(
      'POST',
      'user/passkeys/register/',
      { name: 'Sneaky', credential: key.create({ challenge: 'AAAAAAAAAAAAAAAAAAAAAA', rp: { id: 'localhost' } }) },
      { cookie },
    );
    expect(noChallenge.body.system.inputs).toEqual(['credential']);
    // A recovery code's shape, but none of this user's.
    const wrongCode = await registerOptions(cookie, account.password, { code: 'ABCDE-FGHJK' });
    expect(wrongCode.body.system.inputs).toEqual(['code']);
    expect(wrongCode.body.system.errors).toEqual(['El código no es correcto']);
    // A wrong password never uses up the code: the same code then works with the right one.
    const current = code();
    expect((await registerOptions(cookie, 'not the password', { code: current })).body.system.inputs).toEqual([
      'password',
    ]);
    expect(await stored()).toEqual([]);

    const options = await registerOptions(cookie, account.password, { code: current });
    expect(options.body.system.errors).toEqual([]);
    const added = await t.call<PasskeyItem>(
      'POST',
      'user/passkeys/register/',
      { name: 'Laptop', credential: key.create(options.body.data.options) },
      { cookie },
    );
    expect(added.body.system.info).toEqual(['Llave de acceso añadida']);
    // The same code twice is not a current factor any more; a recovery code is, once.
    expect((await registerOptions(cookie, account.password, { code: current })).body.system.inputs).toEqual(['code']);
    await register(account, cookie, new SoftAuthenticator(ORIGIN), 'Phone', undefined, recoveryCodes[0]);
    expect(
      (await registerOptions(cookie, account.password, { code: recoveryCodes[0] as string })).body.system.inputs,
    ).toEqual(['code']);
    // One of the passkeys confirms as well as a code does.
    await register(account, cookie, new SoftAuthenticator(ORIGIN), 'Tablet', key);
    expect((await stored()).map((row) => row.name)).toEqual(['Laptop', 'Phone', 'Tablet']);
    expect((await passwordStep(account)).body.data).toEqual({
      secondFactor: 'totp',
      passkey: true,
      loginToken: expect.any(String),
    });
  });

  it('with a passkey as the only second factor, adds another only with a passkey’s signature', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'pk-add.test' });
    const cookie = await t.login(account.domainName, account.username, account.password);
    const first = new SoftAuthenticator(ORIGIN);
    await register(account, cookie, first, 'Laptop');

    const passwordAlone = await registerOptions(cookie, account.password);
    expect(passwordAlone.body.system.inputs).toEqual(['credential']);
    expect(passwordAlone.body.system.errors).toEqual(['Confírmalo con una de tus llaves de acceso.']);
    // No TOTP: a code is no factor of this user, the passkey is still asked for.
    expect((await registerOptions(cookie, account.password, { code: '123456' })).body.system.inputs).toEqual([
      'credential',
    ]);
    const forged = await registerOptions(cookie, account.password, {
      credential: first.get(await reauthOptions(cookie), { origin: 'https://evil.example' }),
    });
    expect(forged.body.system.inputs).toEqual(['credential']);
    // Another user's passkey is no factor of this one.
    const stranger = new SoftAuthenticator(ORIGIN);
    expect(
      (await registerOptions(cookie, account.password, { credential: stranger.get(await reauthOptions(cookie)) })).body
        .system.inputs,
    ).toEqual(['credential']);

    await register(account, cookie, new SoftAuthenticator(ORIGIN), 'Phone', first);
    const list = await t.call<{ passkeys: PasskeyItem[] }>('GET', 'user/passkeys/', {}, { cookie });
    expect(list.body.data.passkeys.map((p) => p.name)).toEqual(['Laptop', 'Phone']);
  });

  it('answers the login second step with a passkey: origin, relying party, challenge replay and counter checked', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'second.test' });
    const cookie = await t.login(account.domainName, account.username, account.password);
    const key = new SoftAuthenticator(ORIGIN);
    await register(account, cookie, key, 'Laptop');

    const first = await passwordStep(account);
    expect(first.body.data).toEqual({
      secondFactor: 'passkey',
      passkey: true,
      loginToken: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(cookieOf(first.response)).toBeUndefined();
    const token = first.body.data.loginToken as string;

    // Without TOTP no code opens it.
    const code = await t.call('POST', 'user/login/code/', { loginToken: token, code: '123456' });
    expect(code.body.system.inputs).toEqual(['code']);

    const forged = [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    ];
    for (const forgery of forged) {
      const options = (await loginOptions(token)).body.data.options;
      expect(options.rpId).toBe('localhost');
      expect(options.allowCredentials?.map((c) => c.id)).toEqual([key.id]);
      const refused = await loginWith(token, key.get(options, forgery));
      expect(refused.body.system.inputs).toEqual(['credential']);
      expect(cookieOf(refused.response)).toBeUndefined();
    }

    const options = (await loginOptions(token)).body.data.options;
    const answer = key.get(options);
    const right = await loginWith(token, answer);
    expect(right.body.system.errors).toEqual([]);
    expect(right.body.data).toEqual({ domainID: account.resources['second.test'] });
    expect(cookieOf(right.response)).toBeDefined();

    // The same signature again: the login is used up, and a new login's challenge is another one.
    expect((await loginWith(token, answer)).body.system.inputs).toEqual(['credential']);
    const next = (await passwordStep(account)).body.data.loginToken as string;
    await loginOptions(next);
    expect((await loginWith(next, answer)).body.system.inputs).toEqual(['credential']);

    // A counter that did not move forward: a cloned authenticator. Refused.
    const stale = await loginWith(
      next,
      key.get((await loginOptions(next)).body.data.options, { counter: key.counter }),
    );
    expect(stale.body.system.inputs).toEqual(['credential']);
    const row = await t.database.db
      .selectFrom('user_passkeys')
      .select(['sign_count', 'last_used_at'])
      .where('credential_id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(row.sign_count).toBe(key.counter);
    expect(row.last_used_at).toBe(seconds());
    const forward = await loginWith(next, key.get((await loginOptions(next)).body.data.options));
    expect(cookieOf(forward.response)).toBeDefined();

    // An authenticator that keeps no counter (always 0) is accepted every time.
    const counterless = new SoftAuthenticator(ORIGIN, { counterStep: 0 });
    await register(account, cookie, counterless, 'No counter', key);
    for (let i = 0; i < 2; i++) {
      const login = (await passwordStep(account)).body.data.loginToken as string;
      const ok = await loginWith(login, counterless.get((await loginOptions(login)).body.data.options));
      expect(cookieOf(ok.response)).toBeDefined();
    }
  });

  it('logs in with a passkey alone (same domain and user) only when it verified its user', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'alone.test' });
    const cookie = await t.login(account.domainName, account.username, account.password);
    const key = new SoftAuthenticator(ORIGIN);
    await register(account, cookie, key, 'Laptop');
    const start = () =>
      t.call<{ loginToken: string; options: RequestOptions }>('POST', 'user/login/passkey/start/', {
        domainName: account.domainName,
        username: account.username,
      });

    const begun = await start();
    // No credential named: the answer tells nothing about the user or their passkeys.
    expect(begun.body.data.options.allowCredentials ?? []).toEqual([]);
    expect(begun.body.data.options.userVerification).toBe('required');
    const presenceOnly = await loginWith(
      begun.body.data.loginToken,
      key.get(begun.body.data.options, { userVerified: false }),
    );
    expect(presenceOnly.body.system.inputs).toEqual(['credential']);

    // A passwordless login is never finished by a code.
    const viaCode = await t.call('POST', 'user/login/code/', {
      loginToken: (await start()).body.data.loginToken,
      code: '123456',
    });
    expect(viaCode.body.system.errors).toEqual(['El inicio de sesión ha caducado. Vuelve a escribir la contraseña.']);

    const again = await start();
    const ok = await loginWith(again.body.data.loginToken, key.get(again.body.data.options));
    expect(ok.body.system.errors).toEqual([]);
    expect(ok.body.data).toEqual({ domainID: account.resources['alone.test'] });
    expect(cookieOf(ok.response)).toBeDefined();
    expect(t.logs.some((line) => line.event === 'auth.passkey_login')).toBe(true);

    // Another user's passkey does not open this user, and an unknown user looks the same.
    const other = await buildAccount(t.database.db, { domainName: 'alone2.test' });
    const otherStart = await t.call<{ loginToken: string; options: RequestOptions }>(
      'POST',
      'user/login/passkey/start/',
      { domainName: other.domainName, username: other.username },
    );
    expect(
      (await loginWith(otherStart.body.data.loginToken, key.get(otherStart.body.data.options))).body.system.inputs,
    ).toEqual(['credential']);
    const ghost = await t.call<{ loginToken: string; options: RequestOptions }>('POST', 'user/login/passkey/start/', {
      domainName: 'nobody.test',
      username: 'ghost',
    });
    expect(Object.keys(ghost.body.data)).toEqual(['loginToken', 'options']);
    expect((await loginWith(ghost.body.data.loginToken, key.get(ghost.body.data.options))).body.system.inputs).toEqual([
      'credential',
    ]);
  });

  it('removes a passkey only with the password and a current factor, reports it, and another user’s id is not found', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'remove.test' });
    const cookie = await t.login(account.domainName, account.username, account.password);
    await cli(userCommands, 'email', { domain: 'remove.test', user: 'admin', email: 'owner@remove.test' });
    const laptop = new SoftAuthenticator(ORIGIN);
    const phone = new SoftAuthenticator(ORIGIN);
    const laptopItem = await register(account, cookie, laptop, 'Laptop');
    const phoneItem = await register(account, cookie, phone, 'Phone', laptop);
    const remove = (id: number, params: Record<string, string>, as = cookie) =>
      t.call('POST', `user/passkeys/${id}/remove/`, params, { cookie: as });

    expect((await remove(laptopItem.id, { password: account.password })).body.system.inputs).toEqual(['code']);
    const wrongPassword = await remove(laptopItem.id, {
      password: 'not it',
      credential: phone.get(await reauthOptions(cookie)),
    });
    expect(wrongPassword.body.system.inputs).toEqual(['password']);
    const wrongCode = await remove(laptopItem.id, { password: account.password, code: '123456' });
    expect(wrongCode.body.system.inputs).toEqual(['code']);
    // A signature for the login, not for this confirmation: another challenge, refused.
    const forged = await remove(laptopItem.id, {
      password: account.password,
      credential: phone.get(await reauthOptions(cookie), { origin: 'https://evil.example' }),
    });
    expect(forged.body.system.inputs).toEqual(['credential']);

    // Another user cannot even see it.
    const stranger = await buildAccount(t.database.db, { domainName: 'stranger.test' });
    const strangerCookie = await t.login(stranger.domainName, stranger.username, stranger.password);
    const notFound = await remove(laptopItem.id, { password: stranger.password, code: '123456' }, strangerCookie);
    expect(notFound.response.statusCode).toBe(404);

    const removed = await remove(laptopItem.id, {
      password: account.password,
      credential: phone.get(await reauthOptions(cookie)),
    });
    expect(removed.body.system.info).toEqual(['Llave de acceso eliminada']);
    const list = await t.call<{ passkeys: PasskeyItem[] }>('GET', 'user/passkeys/', {}, { cookie });
    expect(list.body.data.passkeys.map((p) => p.id)).toEqual([phoneItem.id]);

    // With TOTP on, a code confirms too (the last passkey may go: TOTP stays).
    const setup = await t.call<{ secret: string }>('POST', 'user/twofactor/setup/', {}, { cookie });
    const secret = setup.body.data.secret;
    await t.call('POST', 'user/twofactor/enable/', { code: generateSync({ secret, epoch: seconds() }) }, { cookie });
    t.clock.advance(30);
    const byCode = await remove(phoneItem.id, {
      password: account.password,
      code: generateSync({ secret, epoch: seconds() }),
    });
    expect(byCode.body.system.info).toEqual(['Llave de acceso eliminada']);
    // Both ways of answering the login step are listed while both exist; TOTP alone now.
    expect((await passwordStep(account)).body.data).toEqual({ secondFactor: 'totp', loginToken: expect.any(String) });

    const mails = await t.database.db
      .selectFrom('outbox')
      .select(['kind', 'body'])
      .where('to_address', '=', 'owner@remove.test')
      .orderBy('id')
      .execute();
    expect(mails.map((m) => m.kind)).toEqual([
      'security_passkey_added',
      'security_passkey_added',
      'security_passkey_removed',
      'security_enabled',
      'security_passkey_removed',
    ]);
    expect(mails[2]?.body).toContain('«Laptop»');
    expect(t.logs.some((line) => line.event === 'auth.2fa_passkey_removed')).toBe(true);
  });

  it('renames one of the user’s own passkeys with the name’s rules; another user’s id is not found; no notice', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'rename.test' });
    const cookie = await t.login(account.domainName, account.username, account.password);
    await cli(userCommands, 'email', { domain: 'rename.test', user: 'admin', email: 'owner@rename.test' });
    const laptopKey = new SoftAuthenticator(ORIGIN);
    const laptop = await register(account, cookie, laptopKey, 'Laptop');
    const phone = await register(account, cookie, new SoftAuthenticator(ORIGIN), 'Phone', laptopKey);
    const rename = (id: number | string, name: string, as = cookie) =>
      t.call('POST', `user/passkeys/${id}/rename/`, { name }, { cookie: as });
    const names = async () =>
      (await t.call<{ passkeys: PasskeyItem[] }>('GET', 'user/passkeys/', {}, { cookie })).body.data.passkeys.map(
        (p) => [p.id, p.name],
      );

    const renamed = await rename(laptop.id, '  Work laptop  ');
    expect(renamed.body.system.valid).toBe(true);
    expect(renamed.body.system.info).toEqual(['Llave de acceso renombrada']);
    expect(await names()).toEqual([
      [laptop.id, 'Work laptop'],
      [phone.id, 'Phone'],
    ]);

    for (const bad of ['', '   ', 'x'.repeat(65)]) {
      const refused = await rename(phone.id, bad);
      expect(refused.body.system.valid).toBe(false);
      expect(refused.body.system.inputs).toEqual(['name']);
    }
    expect((await rename('abc', 'Name')).body.system.valid).toBe(false);
    expect((await rename(999_999, 'Name')).response.statusCode).toBe(404);
    const stranger = await buildAccount(t.database.db, { domainName: 'rename-stranger.test' });
    const strangerCookie = await t.login(stranger.domainName, stranger.username, stranger.password);
    expect((await rename(phone.id, 'Mine now', strangerCookie)).response.statusCode).toBe(404);
    expect((await t.call('POST', `user/passkeys/${phone.id}/rename/`, { name: 'No session' })).body.system.valid).toBe(
      false,
    );
    expect(await names()).toEqual([
      [laptop.id, 'Work laptop'],
      [phone.id, 'Phone'],
    ]);

    // A name tells the user's passkeys apart; it is not a security change: only the two additions were mailed.
    const mails = await t.database.db
      .selectFrom('outbox')
      .select('kind')
      .where('to_address', '=', 'owner@rename.test')
      .execute();
    expect(mails.map((m) => m.kind)).toEqual(['security_passkey_added', 'security_passkey_added']);
  });

  it('counts a passkey as the second factor a brand requires, and the operator reset removes passkeys', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'strictpk.test', brandSlug: 'strictpk' });
    await cli(brandCommands, 'set', { 'require-2fa': true }, ['strictpk']);
    const login = await passwordStep(account);
    expect(login.body.data).toMatchObject({ setupSecondFactor: true });
    const cookie = cookieOf(login.response) as string;
    const domainPath = `domain/${account.resources['strictpk.test']}/`;
    expect((await t.call('GET', domainPath, {}, { cookie })).response.statusCode).toBe(403);

    const key = new SoftAuthenticator(ORIGIN);
    await register(account, cookie, key, 'Laptop');
    // Open at once, in the same session.
    expect((await t.call('GET', domainPath, {}, { cookie })).body.system.valid).toBe(true);

    await cli(userCommands, 'reset-2fa', { domain: 'strictpk.test', user: 'admin' });
    expect(
      await t.database.db.selectFrom('user_passkeys').select('id').where('user_id', '=', account.userId).execute(),
    ).toEqual([]);
  });
});

describe.each(DATABASE_KINDS)('passkey relying party and captcha on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        passkeyOrigins: ['https://panel.example'],
        'captcha.provider': 'altcha',
        'captcha.altchaMaxNumber': 2000,
      },
    });
  });
  afterAll(() => t.close());

  it('takes the relying party from the configured origins by the request host, and refuses other hosts', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'origins.test' });
    const session = await buildTestSession(t, account);
    const own = await t.call<{ options: CreationOptions }>(
      'POST',
      'user/passkeys/register/options/',
      { password: account.password },
      { cookie: session, headers: { host: 'panel.example' } },
    );
    expect(own.body.data.options.rp.id).toBe('panel.example');
    const key = new SoftAuthenticator('https://panel.example');
    const added = await t.call(
      'POST',
      'user/passkeys/register/',
      { name: 'Laptop', credential: key.create(own.body.data.options) },
      { cookie: session, headers: { host: 'panel.example' } },
    );
    expect(added.body.system.errors).toEqual([]);

    const elsewhere = await t.call(
      'POST',
      'user/passkeys/register/options/',
      { password: account.password },
      { cookie: session, headers: { host: 'unlisted.example' } },
    );
    expect(elsewhere.body.system.errors).toEqual([
      'Las llaves de acceso no están permitidas en esta dirección del panel',
    ]);
  });

  it('keeps the captcha rule for a login with a passkey alone', async () => {
    const refused = await t.call('POST', 'user/login/passkey/start/', {
      domainName: 'origins.test',
      username: 'admin',
      recaptcha_response: '',
    });
    expect(refused.body.system.inputs).toEqual(['recaptcha_response']);
  });
});

/** A session made directly in the table: this app's login needs a captcha the test does not solve. */
async function buildTestSession(t: TestApp, account: BuiltAccount): Promise<string> {
  const { randomBytes, createHash } = await import('node:crypto');
  const token = randomBytes(32).toString('base64url');
  const now = Math.floor(t.clock.now() / 1000);
  await t.database.db
    .insertInto('sessions')
    .values({
      id: createHash('sha256').update(token).digest('hex'),
      user_id: account.userId,
      created_at: now,
      last_seen_at: now,
      ip: '127.0.0.1',
      user_agent: '',
      previous_login_at: null,
    })
    .execute();
  return `p247_sid=${token}`;
}
