import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildAccount } from '../support/factories.ts';
import { listen } from '../support/realtime-client.ts';
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

  // The router matches the percent-decoded path: each of these reaches `/p247/…`'s routes.
  const spellings = ['/%70247/', '/p%32%347/', '/%70%32%34%37/'];

  it('applies the rule to the route reached, however its path is spelled', async () => {
    for (const base of spellings) {
      const reached = await t.app.inject({ method: 'POST', url: `${base}user/info/`, headers: { ...form, cookie } });
      expect(reached.statusCode, base).toBe(403);
      expect(reached.json().system.errors, base).toEqual(['Petición rechazada: origen no permitido']);
      // the API's headers, not a document's
      expect(reached.headers['content-security-policy'], base).toBeUndefined();
      const logout = await t.app.inject({ method: 'POST', url: `${base}user/logout/`, headers: { ...form, cookie } });
      expect(logout.statusCode, base).toBe(403);
      const crossSite = await t.app.inject({
        method: 'POST',
        url: `${base}user/logout/`,
        headers: { ...form, cookie, 'x-dd-request': '1', origin: 'https://evil.example' },
      });
      expect(crossSite.statusCode, base).toBe(403);
      // and with the header, from the panel itself, the call is the route's as ever
      const allowed = await t.app.inject({
        method: 'POST',
        url: `${base}user/info/`,
        headers: { ...form, cookie, 'x-dd-request': '1', origin: 'http://localhost' },
      });
      expect(allowed.statusCode, base).toBe(200);
    }
    expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.valid).toBe(true);
  });

  it('keeps the exemptions, by route: plain GETs of the configuration, challenge, logos and downloads', async () => {
    for (const base of ['/p247/', ...spellings]) {
      for (const path of ['config/get/', 'health/', 'openapi.json']) {
        expect((await t.app.inject({ method: 'GET', url: `${base}${path}` })).statusCode, base + path).toBe(200);
      }
      // Not refused by the rule: a logo unknown to the catalogue, a download without a session.
      const logo = await t.app.inject({ method: 'GET', url: `${base}hostingapplication/999/logo/` });
      expect(logo.statusCode, base).toBe(404);
      const download = await t.app.inject({ method: 'GET', url: `${base}service/1/files/download/?path=a` });
      expect(download.json().system.statusCode, base).toBe(101);
    }
  });

  it('refuses a cross-origin realtime socket, however its path is spelled', async () => {
    const host = await listen(t);
    const open = (path: string, origin: string) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(`ws://${host}${path}`, { headers: { origin, cookie } });
        socket.once('open', () => {
          socket.close();
          resolve('open');
        });
        socket.once('unexpected-response', (_request, response) => resolve(`HTTP ${response.statusCode}`));
        socket.once('error', (error) => resolve(error.message));
      });
    for (const base of ['/p247/', ...spellings]) {
      expect(await open(`${base}realtime/`, 'https://evil.example'), base).toBe('HTTP 403');
      expect(await open(`${base}realtime/`, `http://${host}`), base).toBe('open');
    }
  });
});
