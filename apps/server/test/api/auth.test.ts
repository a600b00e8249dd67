import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('login, sessions and password change on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'limits.loginPerAccount': 50, 'limits.loginPerIp': 500 } });
    account = await buildAccount(t.database.db, { domainName: 'auth.test' });
  });
  afterAll(() => t.close());

  const login = () => t.login(account.domainName, account.username, account.password);

  it('logs in with an HttpOnly, SameSite=Lax session cookie and returns the domainID', async () => {
    const { response, body } = await t.call('POST', 'user/login/', {
      domainName: 'AUTH.test',
      username: account.username,
      password: account.password,
    });
    expect(body.system.valid).toBe(true);
    expect(body.data).toEqual({ domainID: account.resources['auth.test'] });
    const cookie = response.cookies.find((c) => c.name === 'p247_sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie?.secure).toBeFalsy();
  });

  it('uses a Secure __Host- cookie under HTTPS', async () => {
    const https = await buildTestApp(kind, { config: { trustProxy: true }, database: t.database });
    const { response } = await https.call(
      'POST',
      'user/login/',
      { domainName: account.domainName, username: account.username, password: account.password },
      { headers: { 'x-forwarded-proto': 'https' } },
    );
    const cookie = response.cookies.find((c) => c.name === '__Host-p247_sid');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/' });
    await https.app.close();
  });

  it('stores only a hash of the session token', async () => {
    const cookie = await login();
    const token = cookie.split('=')[1] as string;
    const rows = await t.database.db.selectFrom('sessions').select('id').execute();
    expect(rows.some((row) => row.id === token)).toBe(false);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.id))).toBe(true);
  });

  it('gives the same answer for a wrong password, an unknown user and an unknown domain', async () => {
    const answers = await Promise.all([
      t.call('POST', 'user/login/', { domainName: account.domainName, username: account.username, password: 'nope' }),
      t.call('POST', 'user/login/', { domainName: account.domainName, username: 'ghost', password: 'nope' }),
      t.call('POST', 'user/login/', { domainName: 'nobody.test', username: 'ghost', password: 'nope' }),
    ]);
    for (const { response, body } of answers) {
      expect(response.statusCode).toBe(400);
      expect(body.system.inputs).toEqual(['password']);
      expect(body.system.errors).toEqual(['Dominio, usuario o contraseña incorrectos']);
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('returns the user status for a session and 101 without one', async () => {
    const cookie = await login();
    const { body } = await t.call('POST', 'user/info/', {}, { cookie });
    expect(body.data).toMatchObject({ user: 'admin', ip: '127.0.0.1', domainName: 'auth.test', language: 'es' });
    expect(typeof (body.data as { tsLastLogin: number }).tsLastLogin).toBe('number');

    for (const options of [{}, { cookie: 'p247_sid=garbage' }, { cookie: `p247_sid=${'A'.repeat(43)}` }]) {
      const lost = await t.call('POST', 'user/info/', {}, options);
      expect(lost.response.statusCode).toBe(401);
      expect(lost.body.system).toMatchObject({ valid: false, statusCode: 101 });
    }
  });

  it('gives a new session id at every login and ends the one presented', async () => {
    const first = await login();
    const { response } = await t.call(
      'POST',
      'user/login/',
      { domainName: account.domainName, username: account.username, password: account.password },
      { cookie: first },
    );
    const second = response.cookies.find((c) => c.name === 'p247_sid');
    expect(second?.value).not.toBe(first.split('=')[1]);
    expect((await t.call('POST', 'user/info/', {}, { cookie: first })).body.system.statusCode).toBe(101);
    const fresh = `p247_sid=${second?.value}`;
    expect((await t.call('POST', 'user/info/', {}, { cookie: fresh })).body.system.valid).toBe(true);
  });

  it('ends the session at logout', async () => {
    const cookie = await login();
    const { body, response } = await t.call('POST', 'user/logout/', {}, { cookie });
    expect(body.system.valid).toBe(true);
    expect(body.system.info).toEqual(['Sesión cerrada']);
    expect(response.cookies.find((c) => c.name === 'p247_sid')?.value).toBe('');
    // what the browser kept for revalidation (the permission list) goes with the session
    expect(response.headers['clear-site-data']).toBe('"cache"');
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.statusCode).toBe(101);
  });

  it('expires a session after 30 idle minutes', async () => {
    const cookie = await login();
    t.clock.advance(29 * 60);
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.valid).toBe(true);
    t.clock.advance(29 * 60);
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.valid).toBe(true);
    t.clock.advance(31 * 60);
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.statusCode).toBe(101);
  });

  it('expires an active session after 12 hours', async () => {
    const cookie = await login();
    for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
      t.clock.advance(20 * 60);
      expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.valid).toBe(true);
    }
    t.clock.advance(21 * 60);
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.statusCode).toBe(101);
  });

  it('refuses a password change with a wrong current password, as a field error', async () => {
    const cookie = await login();
    const { body } = await t.call(
      'POST',
      'user/changepass/',
      { actualPassword: 'wrong one', password: 'a brand new password' },
      { cookie },
    );
    expect(body.system).toMatchObject({ valid: false, inputs: ['actualPassword'] });
    expect(body.system.errors).toEqual(['La contraseña actual no es correcta']);
  });

  it('validates the new password', async () => {
    const cookie = await login();
    const short = await t.call(
      'POST',
      'user/changepass/',
      { actualPassword: account.password, password: 'short' },
      { cookie },
    );
    expect(short.body.system.inputs).toEqual(['password']);
    expect(short.body.system.errors[0]).toContain('10');
    const same = await t.call(
      'POST',
      'user/changepass/',
      { actualPassword: account.password, password: account.password },
      { headers: { cookie: `${cookie}; _lang=en` } },
    );
    expect(same.body.system.errors).toEqual(['The new password must differ from the current one']);
  });

  it('changes the password and ends every session of the user', async () => {
    const mine = await login();
    const other = await login();
    const { body } = await t.call(
      'POST',
      'user/changepass/',
      { actualPassword: account.password, password: 'the new password 42' },
      { cookie: mine },
    );
    expect(body.system.valid).toBe(true);
    expect(body.system.info[0]).toContain('Contraseña cambiada');
    for (const cookie of [mine, other]) {
      expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.statusCode).toBe(101);
    }
    await expect(login()).rejects.toThrow();
    account.password = 'the new password 42';
    await expect(login()).resolves.toMatch(/^p247_sid=/);
  });
});
