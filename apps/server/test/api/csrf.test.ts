import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('CSRF rules on %s', (kind) => {
  let t: TestApp;
  let cookie: string;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  beforeAll(async () => {
    t = await buildTestApp(kind);
    const account = await buildAccount(t.database.db, { domainName: 'csrf.test' });
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  it('refuses a call without x-dd-request and changes nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/p247/user/logout/',
      headers: { ...form, cookie },
      payload: '',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().system).toMatchObject({ valid: false, statusCode: 403 });
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.valid).toBe(true);
  });

  it('refuses a cross-origin call even with the header', async () => {
    const { response } = await t.call(
      'POST',
      'user/logout/',
      {},
      { cookie, headers: { origin: 'https://evil.example' } },
    );
    expect(response.statusCode).toBe(403);
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.valid).toBe(true);
  });

  it('accepts a same-origin call', async () => {
    const same = await t.call('POST', 'user/info/', {}, { cookie, headers: { origin: 'http://localhost' } });
    expect(same.response.statusCode).toBe(200);
    const otherPort = await t.call('POST', 'user/info/', {}, { cookie, headers: { origin: 'http://localhost:8080' } });
    expect(otherPort.response.statusCode).toBe(403);
  });

  it('exempts GET config/get/ and the captcha challenge only', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/p247/config/get/' });
    expect(config.statusCode).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/p247/user/login/', headers: form, payload: 'a=b' });
    expect(login.statusCode).toBe(403);
    const permissions = await t.app.inject({ method: 'GET', url: '/p247/permission/list/', headers: { cookie } });
    expect(permissions.statusCode).toBe(403);
  });
});
