import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/modules/rate-limit/rate-limiter.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('brute-force limits on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: { 'limits.loginPerAccount': 3, 'limits.loginPerIp': 6, 'limits.formsPerIp': 2 },
    });
    account = await buildAccount(t.database.db, { domainName: 'limits.test' });
  });
  afterAll(() => t.close());

  const attempt = (username: string, password: string, ip = '127.0.0.1') =>
    t.call(
      'POST',
      'user/login/',
      { domainName: account.domainName, username, password },
      { headers: { 'x-forwarded-for': ip } },
    );

  it('locks an account after repeated failures, even for the right password, until the window ends', async () => {
    for (let i = 0; i < 3; i++) expect((await attempt('admin', 'wrong')).body.system.inputs).toEqual(['password']);
    const locked = await attempt('admin', account.password);
    expect(locked.response.statusCode).toBe(429);
    expect(locked.body.system.errors[0]).toMatch(/Demasiados intentos fallidos.*15 minutos/);
    expect(locked.response.cookies).toHaveLength(0);
    t.clock.advance(16 * 60);
    expect((await attempt('admin', account.password)).body.system.valid).toBe(true);
  });

  it('locks an address after failures on many accounts, with the same answer for unknown users', async () => {
    t.clock.advance(16 * 60);
    for (let i = 0; i < 6; i++) await attempt(`ghost${i}`, 'wrong');
    const locked = await attempt('admin', account.password);
    expect(locked.response.statusCode).toBe(429);
    const english = await t.call(
      'POST',
      'user/login/',
      { domainName: account.domainName, username: 'x', password: 'y', language: 'en' },
      {},
    );
    expect(english.body.system.errors[0]).toMatch(/Too many failed attempts/);
  });

  it('limits the contact and forgot-password forms per address', async () => {
    t.clock.advance(16 * 60);
    const forgot = {
      domain: 'limits.test',
      user: 'admin',
      name: 'Ada',
      email: 'ada@example.com',
      contents: 'I forgot my password',
    };
    expect((await t.call('POST', 'user/forgotpassword/', forgot)).body.system.valid).toBe(true);
    expect((await t.call('POST', 'user/forgotpassword/', forgot)).body.system.valid).toBe(true);
    const third = await t.call('POST', 'user/forgotpassword/', forgot);
    expect(third.response.statusCode).toBe(429);
    expect(third.body.system.errors[0]).toMatch(/Demasiadas peticiones/);
    const rows = await t.database.db.selectFrom('outbox').select('id').where('kind', '=', 'forgot_password').execute();
    expect(rows).toHaveLength(2);
  });
});

describe.each(DATABASE_KINDS)('brute-force limits under parallel attempts on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      // Behind a trusted proxy, so each request can come from its own address.
      config: { 'limits.loginPerAccount': 3, 'limits.loginPerIp': 6, 'limits.formsPerIp': 2, trustProxy: true },
      captureLogs: true,
    });
    account = await buildAccount(t.database.db, { domainName: 'parallel.test' });
  });
  afterAll(() => t.close());

  const login = (username: string, password: string, ip: string) =>
    t.call(
      'POST',
      'user/login/',
      { domainName: account.domainName, username, password },
      { headers: { 'x-forwarded-for': ip } },
    );
  /** How many passwords were checked and found wrong: one log line each. */
  const passwordChecks = (event: string) => t.logs.filter((line) => line.event === event).length;
  const tally = (answers: { response: { statusCode: number } }[]) => ({
    checked: answers.filter((a) => a.response.statusCode === 400).length,
    limited: answers.filter((a) => a.response.statusCode === 429).length,
  });

  it('checks at most the account’s limit of 20 wrong passwords sent at once, then refuses the right one', async () => {
    t.clock.advance(16 * 60);
    const before = passwordChecks('auth.login_failed');
    // One address each, so only the account's limit (3) can stop them.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login('admin', `wrong ${i}`, `198.51.100.${i + 1}`)),
    );
    expect(tally(answers)).toEqual({ checked: 3, limited: 17 });
    expect(passwordChecks('auth.login_failed') - before).toBe(3);
    const right = await login('admin', account.password, '198.51.100.99');
    expect(right.response.statusCode).toBe(429);
    expect(right.response.cookies).toHaveLength(0);
    t.clock.advance(16 * 60);
    expect((await login('admin', account.password, '198.51.100.99')).body.system.valid).toBe(true);
  });

  it('lets six correct logins of one account at once all in: attempts being checked are not failures', async () => {
    t.clock.advance(16 * 60);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => login('admin', account.password, `198.51.100.${150 + i}`)),
    );
    for (const { response, body } of answers) {
      expect(body.system.errors).toEqual([]);
      expect(response.statusCode).toBe(200);
    }
  });

  it('says “too many at once” when places stay held by attempts being checked, and “failed” when they failed', async () => {
    const limiter = new RateLimiter(t.database.db, () => Math.floor(t.clock.now() / 1000), 100);
    const rule = { bucket: 'login-account', max: 3, windowSeconds: 900 };
    const key = 'busy.test|someone';
    for (let i = 0; i < 3; i++) await limiter.enter(rule, key, 'auth.too_many_attempts', 'auth.too_many_at_once');
    await expect(limiter.enter(rule, key, 'auth.too_many_attempts', 'auth.too_many_at_once')).rejects.toMatchObject({
      messageKey: 'auth.too_many_at_once',
    });
    for (let i = 0; i < 3; i++) await limiter.settle(rule, key, true);
    await expect(limiter.enter(rule, key, 'auth.too_many_attempts', 'auth.too_many_at_once')).rejects.toMatchObject({
      messageKey: 'auth.too_many_attempts',
      params: { minutes: 15 },
    });
  });

  it('checks at most the address’s limit of 20 guesses on different accounts sent at once', async () => {
    t.clock.advance(16 * 60);
    const before = passwordChecks('auth.login_failed');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(`ghost${i}`, 'wrong', '203.0.113.5')));
    expect(tally(answers)).toEqual({ checked: 6, limited: 14 });
    expect(passwordChecks('auth.login_failed') - before).toBe(6);
    expect((await login('admin', account.password, '203.0.113.5')).response.statusCode).toBe(429);
    // Another address is not affected, and a success there does not count against it.
    for (let i = 0; i < 8; i++) {
      expect((await login('admin', account.password, '203.0.113.6')).body.system.valid).toBe(true);
    }
  });

  it('keeps a wrong password counted on both rules; a success clears the account and is no failure of the address', async () => {
    t.clock.advance(16 * 60);
    const counts = async () =>
      (
        await t.database.db
          .selectFrom('rate_limits')
          .select(['bucket', 'hits'])
          .where('key', 'in', ['192.0.2.50', `${account.domainName}|admin`])
          .orderBy('bucket')
          .execute()
      ).map((r) => `${r.bucket} ${Number(r.hits)}`);
    for (let i = 0; i < 2; i++) await login('admin', 'wrong', '192.0.2.50');
    expect(await counts()).toEqual(['login-account 2', 'login-ip 2']);
    expect((await login('admin', account.password, '192.0.2.50')).body.system.valid).toBe(true);
    expect(await counts()).toEqual(['login-ip 2']);
  });

  it('does not count a refused captcha: the password was never checked', async () => {
    const altcha = await buildTestApp(kind, {
      config: { 'captcha.provider': 'altcha', 'limits.loginPerAccount': 1 },
      database: t.database,
    });
    try {
      for (let i = 0; i < 3; i++) {
        const { body } = await altcha.call('POST', 'user/login/', {
          domainName: account.domainName,
          username: 'admin',
          password: 'wrong',
          recaptcha_response: 'forged',
        });
        expect(body.system.inputs).toEqual(['recaptcha_response']);
      }
      const rows = await t.database.db
        .selectFrom('rate_limits')
        .select('hits')
        .where('key', '=', `${account.domainName}|admin`)
        .execute();
      expect(rows.map((r) => Number(r.hits))).toEqual([0]);
    } finally {
      await altcha.close();
    }
  });

  it('checks at most the limit of current passwords when changing the password in parallel', async () => {
    t.clock.advance(16 * 60);
    const cookie = await t.login(account.domainName, account.username, account.password);
    const before = passwordChecks('auth.password_change_refused');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.call(
          'POST',
          'user/changepass/',
          { actualPassword: `wrong ${i}`, password: 'a new long password' },
          { cookie },
        ),
      ),
    );
    expect(tally(answers)).toEqual({ checked: 3, limited: 9 });
    expect(passwordChecks('auth.password_change_refused') - before).toBe(3);
    const right = await t.call(
      'POST',
      'user/changepass/',
      { actualPassword: account.password, password: 'a new long password' },
      { cookie },
    );
    expect(right.response.statusCode).toBe(429);
  });

  it('lets through only the form limit of parallel contact and forgot-password messages', async () => {
    t.clock.advance(61 * 60);
    const cookie = await t.login(account.domainName, account.username, account.password);
    const forgot = {
      domain: account.domainName,
      user: 'admin',
      name: 'Ada',
      email: 'ada@example.com',
      contents: 'parallel',
    };
    const sent = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.call('POST', 'user/forgotpassword/', forgot, { headers: { 'x-forwarded-for': '192.0.2.77' } }),
      ),
    );
    expect(sent.filter((a) => a.body.system.valid)).toHaveLength(2);
    expect(sent.filter((a) => a.response.statusCode === 429)).toHaveLength(8);
    const contact = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.call(
          'POST',
          'contactmail/',
          { email: 'ada@example.com', subject: 'Hi', contents: 'parallel' },
          { cookie, headers: { 'x-forwarded-for': '192.0.2.78' } },
        ),
      ),
    );
    expect(contact.filter((a) => a.body.system.valid)).toHaveLength(2);
    const rows = await t.database.db.selectFrom('outbox').select(['kind']).where('body', 'like', '%parallel').execute();
    expect(rows.map((r) => r.kind).sort()).toEqual(['contact', 'contact', 'forgot_password', 'forgot_password']);
  });
});
