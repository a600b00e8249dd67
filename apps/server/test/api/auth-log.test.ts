import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/** Authentication events and refusals reach the log: who, from where, what — never a password. */
describe.each(DATABASE_KINDS)('the security log on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  const WRONG = 'Wr0ng-Guess-7c1e';
  const NEW = 'Brand-New-Secret-5d9a';

  beforeAll(async () => {
    t = await buildTestApp(kind, { captureLogs: true });
    account = await buildAccount(t.database.db, { domainName: 'logged.test', password: 'Old-Secret-3b8f' });
  });
  afterAll(() => t.close());

  const events = (name: string) => t.logs.filter((line) => line.event === name);
  const noSecretsLogged = () => {
    const all = t.logs.map((line) => JSON.stringify(line)).join('\n');
    for (const secret of [WRONG, NEW, account.password]) expect(all).not.toContain(secret);
  };

  it('logs a failed login, a login, a refused and a done password change and a logout, without passwords', async () => {
    const failed = await t.call('POST', 'user/login/', {
      domainName: account.domainName,
      username: account.username,
      password: WRONG,
    });
    expect(failed.body.system.inputs).toEqual(['password']);
    expect(events('auth.login_failed').at(-1)).toMatchObject({
      level: 30,
      domain: 'logged.test',
      user: 'admin',
      ip: '127.0.0.1',
    });

    const cookie = await t.login(account.domainName, account.username, account.password);
    expect(events('auth.login').at(-1)).toMatchObject({ domain: 'logged.test', user: 'admin' });

    await t.call('POST', 'user/changepass/', { actualPassword: WRONG, password: NEW }, { cookie });
    expect(events('auth.password_change_refused')).toHaveLength(1);
    const second = await t.login(account.domainName, account.username, account.password);
    expect((await t.call('POST', 'user/logout/', {}, { cookie: second })).body.system.valid).toBe(true);
    expect(events('auth.logout').at(-1)).toMatchObject({ domain: 'logged.test', user: 'admin' });

    const third = await t.login(account.domainName, account.username, account.password);
    const changed = await t.call(
      'POST',
      'user/changepass/',
      { actualPassword: account.password, password: NEW },
      { cookie: third },
    );
    expect(changed.body.system.valid).toBe(true);
    expect(events('auth.password_changed')).toHaveLength(1);
    // Every auth line says which request it belongs to.
    for (const line of t.logs.filter((l) => String(l.event ?? '').startsWith('auth.'))) {
      expect(typeof line.reqId).toBe('string');
      expect(Object.keys(line)).not.toContain('password');
    }
    noSecretsLogged();
    account.password = NEW;
  });

  it('never logs a control character a client sent', async () => {
    // A user name with CR/LF is refused before any event is logged about it.
    const before = t.logs.length;
    const forged = await t.call('POST', 'user/login/', {
      domainName: account.domainName,
      username: 'admin\r\n{"event":"auth.login"}',
      password: WRONG,
    });
    expect(forged.body.system.inputs).toEqual(['username']);
    expect(t.logs.slice(before).filter((line) => String(line.event ?? '').startsWith('auth.'))).toEqual([]);

    // A refused cross-site call logs its Origin with the control characters replaced.
    const csrf = await t.app.inject({
      method: 'POST',
      url: '/p247/user/logout/',
      headers: { 'x-dd-request': '1', origin: 'https://evil.test\r\n{"event":"forged"}' },
    });
    expect(csrf.statusCode).toBe(403);
    expect(events('csrf.refused').at(-1)).toMatchObject({ level: 40, origin: 'https://evil.test??{"event":"forged"}' });
    expect(events('authorization.refused').at(-1)).toMatchObject({ reason: 'error.csrf', url: '/p247/user/logout/' });
    for (const line of t.logs) {
      for (const value of Object.values(line)) {
        if (typeof value === 'string') expect(value).not.toMatch(/[\r\n]/);
      }
    }
    noSecretsLogged();
  });

  it('logs a refused captcha without the answer or the password', async () => {
    const altcha = await buildTestApp(kind, {
      config: { 'captcha.provider': 'altcha' },
      database: t.database,
      captureLogs: true,
    });
    try {
      const { body } = await altcha.call('POST', 'user/login/', {
        domainName: account.domainName,
        username: account.username,
        password: WRONG,
        recaptcha_response: 'forged-answer-91f2',
      });
      expect(body.system.inputs).toEqual(['recaptcha_response']);
      expect(altcha.logs.find((line) => line.event === 'auth.captcha_failed')).toMatchObject({
        domain: 'logged.test',
        user: 'admin',
      });
      const all = altcha.logs.map((line) => JSON.stringify(line)).join('\n');
      expect(all).not.toContain(WRONG);
      expect(all).not.toContain('forged-answer-91f2');
    } finally {
      await altcha.close();
    }
  });
});
