import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext, CommandGroup, ParsedArgs } from '../../src/cli/command.ts';
import { brandCommands } from '../../src/cli/commands/brand.command.ts';
import { userCommands } from '../../src/cli/commands/user.command.ts';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

interface Setup {
  secret: string;
  uri: string;
  qr: string;
}
interface LoginAnswer {
  domainID?: number;
  secondFactor?: 'totp';
  loginToken?: string;
}

describe.each(DATABASE_KINDS)('two-factor login on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'limits.loginPerAccount': 5, 'limits.loginPerIp': 200 } });
  });
  afterAll(() => t.close());

  const seconds = () => Math.floor(t.clock.now() / 1000);
  const codeAt = (secret: string, offsetSeconds = 0) => generateSync({ secret, epoch: seconds() + offsetSeconds });
  /** A code none of the accepted steps (one either side of now) would take. */
  const notACode = (secret: string, n = 0) => {
    const valid = new Set([-30, 0, 30].map((offset) => codeAt(secret, offset)));
    let guess = Number(codeAt(secret)) + 1 + n;
    while (valid.has(String(guess % 1_000_000).padStart(6, '0'))) guess += 7;
    return String(guess % 1_000_000).padStart(6, '0');
  };
  /** Moves to the start of the next 30-second step, so a fresh code is not the last one used. */
  const nextStep = () => t.clock.advance(30 - (seconds() % 30));

  const passwordStep = async (account: BuiltAccount, ip = '127.0.0.1') =>
    t.call<LoginAnswer>(
      'POST',
      'user/login/',
      { domainName: account.domainName, username: account.username, password: account.password },
      { headers: { 'x-forwarded-for': ip } },
    );
  const codeStep = (loginToken: string, code: string, ip = '127.0.0.1') =>
    t.call<LoginAnswer>('POST', 'user/login/code/', { loginToken, code }, { headers: { 'x-forwarded-for': ip } });

  /** Runs an admin CLI command in this process, on the test's database. */
  async function cli(group: CommandGroup, name: string, values: ParsedArgs['values'], positionals: string[] = []) {
    const command = group.commands.find((c) => c.name === name);
    if (!command) throw new Error(`no command ${name}`);
    const admin = new AdminService(t.database.db, new LocalEventBus(), seconds);
    return command.run({ admin } as CommandContext, await command.parse({ values, positionals, io: {} as never }));
  }

  /** A user with TOTP on; returns the secret, the recovery codes and a session cookie. */
  async function enrolled(domainName: string) {
    const account = await buildAccount(t.database.db, { domainName });
    const cookie = await t.login(account.domainName, account.username, account.password);
    const setup = await t.call<Setup>('POST', 'user/twofactor/setup/', {}, { cookie });
    const secret = setup.body.data.secret;
    const enable = await t.call<{ recoveryCodes: string[] }>(
      'POST',
      'user/twofactor/enable/',
      { code: codeAt(secret) },
      { cookie },
    );
    expect(enable.body.system.valid).toBe(true);
    nextStep();
    return { account, secret, recoveryCodes: enable.body.data.recoveryCodes, cookie };
  }

  it('enrols: a QR code and secret, refused with a wrong code, on with the right one and ten recovery codes', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'enrol.test' });
    const cookie = await t.login(account.domainName, account.username, account.password);
    const before = await t.call('GET', 'user/twofactor/', {}, { cookie });
    expect(before.body.data).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });

    const setup = await t.call<Setup>('POST', 'user/twofactor/setup/', {}, { cookie });
    const { secret, uri, qr } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Test%20Hosting:admin%40enrol\.test\?/);
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr.split(',')[1] as string, 'base64').toString()).toContain('<svg');

    // Stored sealed, never as the secret itself.
    const row = await t.database.db.selectFrom('user_totp').selectAll().executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(secret);
    expect(row.enabled_at).toBeNull();

    // Not on until a code confirms the app read the secret.
    const wrongCode = notACode(secret);
    const wrong = await t.call('POST', 'user/twofactor/enable/', { code: wrongCode }, { cookie });
    expect(wrong.body.system.inputs).toEqual(['code']);
    expect(wrong.body.system.errors).toEqual(['El código no es correcto']);
    expect((await t.call('GET', 'user/twofactor/', {}, { cookie })).body.data).toMatchObject({ enabled: false });

    const right = await t.call<{ recoveryCodes: string[] }>(
      'POST',
      'user/twofactor/enable/',
      { code: codeAt(secret) },
      { cookie },
    );
    expect(right.body.system.info).toEqual(['Verificación en dos pasos activada']);
    expect(right.body.data.recoveryCodes).toHaveLength(10);
    for (const code of right.body.data.recoveryCodes) expect(code).toMatch(/^[2-9A-Z]{5}-[2-9A-Z]{5}$/);
    expect(new Set(right.body.data.recoveryCodes).size).toBe(10);
    expect((await t.call('GET', 'user/twofactor/', {}, { cookie })).body.data).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
      required: false,
    });
    // Only hashes are kept.
    const hashes = await t.database.db.selectFrom('user_recovery_codes').select('code_hash').execute();
    for (const { code_hash } of hashes) expect(right.body.data.recoveryCodes.join()).not.toContain(code_hash);

    // A second setup cannot replace an enabled factor.
    const again = await t.call('POST', 'user/twofactor/setup/', {}, { cookie });
    expect(again.body.system.errors).toEqual(['La verificación en dos pasos ya está activada']);
  });

  it('asks for the code after the password, with no session until the code, one step either side accepted', async () => {
    const { account, secret } = await enrolled('steps.test');
    // One step past the step the enrolment's code used up.
    nextStep();

    const first = await passwordStep(account);
    expect(first.body.system.valid).toBe(true);
    expect(first.body.data).toEqual({ secondFactor: 'totp', loginToken: expect.stringMatching(/^[\w-]{43}$/) });
    expect(first.response.cookies).toHaveLength(0);
    const token = first.body.data.loginToken as string;

    // Two steps old or two ahead: refused.
    for (const offset of [-60, 60]) {
      const refused = await codeStep(token, codeAt(secret, offset));
      expect(refused.response.statusCode).toBe(400);
      expect(refused.body.system.errors).toEqual(['El código no es correcto']);
      expect(refused.response.cookies).toHaveLength(0);
    }
    // The previous step's code (typed as it changed) is accepted.
    const done = await codeStep(token, codeAt(secret, -30));
    expect(done.body.system.valid).toBe(true);
    expect(done.body.data).toEqual({ domainID: account.resources['steps.test'] });
    const cookie = done.response.cookies.find((c) => c.name === 'p247_sid');
    expect(cookie?.value).toMatch(/^[\w-]{43}$/);
    const info = await t.call('POST', 'user/info/', {}, { cookie: `p247_sid=${cookie?.value}` });
    expect(info.body.data).toMatchObject({ user: 'admin', domainName: 'steps.test' });

    // The token is single-use.
    const reused = await codeStep(token, codeAt(secret));
    expect(reused.body.system.errors).toEqual(['El inicio de sesión ha caducado. Vuelve a escribir la contraseña.']);

    // A code is good once, and so is any code of its step or an earlier one.
    const second = await passwordStep(account);
    const secondToken = second.body.data.loginToken as string;
    const replay = await codeStep(secondToken, codeAt(secret, -30));
    expect(replay.body.system.errors).toEqual(['El código no es correcto']);
    const later = await codeStep(secondToken, codeAt(secret));
    expect(later.body.system.valid).toBe(true);
    const third = await passwordStep(account);
    const sameAgain = await codeStep(third.body.data.loginToken as string, codeAt(secret));
    expect(sameAgain.body.system.errors).toEqual(['El código no es correcto']);
  });

  it('lets the code follow the password for five minutes only', async () => {
    const { account, secret } = await enrolled('expiry.test');
    const first = await passwordStep(account);
    t.clock.advance(5 * 60 + 1);
    const late = await codeStep(first.body.data.loginToken as string, codeAt(secret));
    expect(late.body.system.errors).toEqual(['El inicio de sesión ha caducado. Vuelve a escribir la contraseña.']);
    const fake = await codeStep('A'.repeat(43), codeAt(secret));
    expect(fake.body.system.inputs).toEqual(['code']);
  });

  it('takes each recovery code once', async () => {
    const { account, recoveryCodes } = await enrolled('recovery.test');
    const code = recoveryCodes[0] as string;
    const first = await passwordStep(account);
    // Case and the dash do not matter.
    const used = await codeStep(first.body.data.loginToken as string, code.toLowerCase().replace('-', ''));
    expect(used.body.system.valid).toBe(true);
    const cookie = `p247_sid=${used.response.cookies.find((c) => c.name === 'p247_sid')?.value}`;
    expect((await t.call('GET', 'user/twofactor/', {}, { cookie })).body.data).toMatchObject({ recoveryCodesLeft: 9 });

    const second = await passwordStep(account);
    const again = await codeStep(second.body.data.loginToken as string, code);
    expect(again.body.system.errors).toEqual(['El código no es correcto']);
    const other = await codeStep(second.body.data.loginToken as string, recoveryCodes[1] as string);
    expect(other.body.system.valid).toBe(true);
  });

  it('counts wrong codes in the per-account window whatever address they come from', async () => {
    const { account, secret } = await enrolled('guess.test');
    const wrongCode = (n: number) => notACode(secret, n);
    // Each guess from another address, each after a fresh (right) password: still one window.
    for (let i = 0; i < 5; i++) {
      const ip = `203.0.113.${i + 1}`;
      const step = await passwordStep(account, ip);
      expect(step.body.data.secondFactor).toBe('totp');
      const guess = await codeStep(step.body.data.loginToken as string, wrongCode(i), ip);
      expect(guess.body.system.errors).toEqual(['El código no es correcto']);
    }
    // The window is full: the password step and the right code are both refused now.
    const locked = await passwordStep(account, '198.51.100.7');
    expect(locked.response.statusCode).toBe(429);
    expect(locked.body.system.errors[0]).toMatch(/Demasiados intentos fallidos/);

    t.clock.advance(15 * 60 + 1);
    nextStep();
    const open = await passwordStep(account, '198.51.100.7');
    const ok = await codeStep(open.body.data.loginToken as string, codeAt(secret), '198.51.100.7');
    expect(ok.body.system.valid).toBe(true);
  });

  it('turns off and renews recovery codes only with the password and a current code, and reports each change', async () => {
    const { account, secret, recoveryCodes, cookie } = await enrolled('reauth.test');
    await cli(userCommands, 'email', { domain: 'reauth.test', user: 'admin', email: 'owner@reauth.test' });

    const noPassword = await t.call(
      'POST',
      'user/twofactor/recoverycodes/',
      { password: 'not it', code: codeAt(secret) },
      { cookie },
    );
    expect(noPassword.body.system.inputs).toEqual(['password']);
    const noCode = await t.call(
      'POST',
      'user/twofactor/recoverycodes/',
      { password: account.password, code: notACode(secret) },
      { cookie },
    );
    expect(noCode.body.system.inputs).toEqual(['code']);

    const renewed = await t.call<{ recoveryCodes: string[] }>(
      'POST',
      'user/twofactor/recoverycodes/',
      { password: account.password, code: codeAt(secret) },
      { cookie },
    );
    expect(renewed.body.data.recoveryCodes).toHaveLength(10);
    expect(renewed.body.data.recoveryCodes).not.toContain(recoveryCodes[0]);
    nextStep();

    // The old codes are void: one of them no longer passes re-authentication.
    const oldCode = await t.call(
      'POST',
      'user/twofactor/disable/',
      { password: account.password, code: recoveryCodes[2] as string },
      { cookie },
    );
    expect(oldCode.body.system.inputs).toEqual(['code']);

    const off = await t.call(
      'POST',
      'user/twofactor/disable/',
      { password: account.password, code: renewed.body.data.recoveryCodes[0] as string },
      { cookie },
    );
    expect(off.body.system.info).toEqual(['Verificación en dos pasos desactivada']);
    expect((await t.call('GET', 'user/twofactor/', {}, { cookie })).body.data).toMatchObject({ enabled: false });
    expect(
      await t.database.db
        .selectFrom('user_recovery_codes')
        .select('id')
        .where('user_id', '=', account.userId)
        .execute(),
    ).toEqual([]);

    // Without a factor the login is one step again, answered exactly as before.
    const plain = await passwordStep(account);
    expect(plain.body.data).toEqual({ domainID: account.resources['reauth.test'] });
    expect(plain.response.cookies.some((c) => c.name === 'p247_sid')).toBe(true);

    // Each change went to the user's address (enable came before the address was known).
    const mails = await t.database.db
      .selectFrom('outbox')
      .select(['kind', 'to_address', 'subject', 'body'])
      .where('to_address', '=', 'owner@reauth.test')
      .orderBy('id')
      .execute();
    expect(mails.map((m) => m.kind)).toEqual(['security_recovery_codes', 'security_disabled']);
    expect(mails[1]?.subject).toBe('[Test Hosting] Verificación en dos pasos desactivada');
    expect(mails[1]?.body).toContain('admin de reauth.test');
  });

  it('a brand that requires two factors lets a user without one do nothing but set it up', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'strict.test', brandSlug: 'strict' });
    await cli(brandCommands, 'set', { 'require-2fa': true }, ['strict']);

    const login = await passwordStep(account);
    expect(login.body.data).toEqual({ domainID: account.resources['strict.test'], setupSecondFactor: true });
    const cookie = `p247_sid=${login.response.cookies.find((c) => c.name === 'p247_sid')?.value}`;
    // The shell's own calls and the set-up answer; anything else says the set-up comes first.
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.valid).toBe(true);
    expect((await t.call('GET', 'permission/list/', {}, { cookie })).body.system.valid).toBe(true);
    expect((await t.call('GET', 'user/twofactor/', {}, { cookie })).body.data).toMatchObject({ required: true });
    const domainId = String(account.resources['strict.test']);
    const refused = await t.call('GET', `domain/${domainId}/`, {}, { cookie });
    expect(refused.response.statusCode).toBe(403);
    expect(refused.body.system.errors).toEqual([
      'Tu proveedor exige la verificación en dos pasos: actívala en Preferencias antes de continuar.',
    ]);
    expect(
      (await t.call('POST', 'user/changepass/', { actualPassword: 'x', password: 'y'.repeat(12) }, { cookie })).response
        .statusCode,
    ).toBe(403);

    const setup = await t.call<Setup>('POST', 'user/twofactor/setup/', {}, { cookie });
    await t.call('POST', 'user/twofactor/enable/', { code: codeAt(setup.body.data.secret) }, { cookie });
    // On at once, in the same session.
    expect((await t.call('GET', `domain/${domainId}/`, {}, { cookie })).body.system.valid).toBe(true);

    await cli(brandCommands, 'set', { 'optional-2fa': true }, ['strict']);
    const row = await t.database.db
      .selectFrom('brands')
      .select('require_2fa')
      .where('slug', '=', 'strict')
      .executeTakeFirst();
    expect(row?.require_2fa).toBe(0);
  });

  it('lets the operator turn off the factor of a user who lost phone and codes', async () => {
    const { account, cookie } = await enrolled('lost.test');
    const answer = await cli(userCommands, 'reset-2fa', { domain: 'lost.test', user: 'admin' });
    expect(answer.json).toMatchObject({ secondFactorRemoved: true, sessionsEnded: true });
    // The CLI is another process: a session it ends may be reused from an instance's cache that long.
    t.clock.advance(t.config.session.cacheSeconds + 1);
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.statusCode).toBe(101);
    const plain = await passwordStep(account);
    expect(plain.body.data).toEqual({ domainID: account.resources['lost.test'] });
  });

  it('refuses re-authentication calls while no factor is on', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'nofactor.test' });
    const cookie = await t.login(account.domainName, account.username, account.password);
    const off = await t.call(
      'POST',
      'user/twofactor/disable/',
      { password: account.password, code: '123456' },
      { cookie },
    );
    expect(off.body.system.errors).toEqual(['La verificación en dos pasos no está activada']);
    const noSession = await t.call('POST', 'user/twofactor/setup/', {});
    expect(noSession.body.system.statusCode).toBe(101);
  });
});
