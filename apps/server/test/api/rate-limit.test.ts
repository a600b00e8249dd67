import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
