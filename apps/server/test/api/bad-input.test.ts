import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('hostile input on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'limits.formsPerIp': 1000 } });
    account = await buildAccount(t.database.db, { domainName: 'hostile.test' });
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const outboxCount = async () => (await t.database.db.selectFrom('outbox').select('id').execute()).length;
  const good = { email: 'ada@example.com', subject: 'Hello', contents: 'A question' };

  const cases: [string, Record<string, string | string[]>, string][] = [
    ['CR/LF in a one-line field', { ...good, subject: 'Hi\r\nBcc: victim@example.com' }, 'subject'],
    ['a NUL byte', { ...good, contents: 'text\u0000more' }, 'contents'],
    ['a 10 kB field', { ...good, subject: 'x'.repeat(10_000) }, 'subject'],
    ['a 10 kB message', { ...good, contents: 'x'.repeat(10_000) }, 'contents'],
    ['a list where a string is expected', { ...good, email: ['a@example.com', 'b@example.com'] }, 'email'],
    ['a bad e-mail', { ...good, email: 'not-an-address' }, 'email'],
    ['an e-mail with a newline', { ...good, email: 'a@example.com\nBcc: x@example.com' }, 'email'],
    ['an empty required field', { ...good, subject: '   ' }, 'subject'],
  ];

  it.each(cases)('refuses %s with a field error and writes nothing', async (_label, params, field) => {
    const before = await outboxCount();
    const { response, body } = await t.call('POST', 'contactmail/', params, { cookie });
    expect(response.statusCode).toBe(400);
    expect(body.system.valid).toBe(false);
    expect(body.system.inputs).toContain(field);
    expect(body.system.errors[body.system.inputs.indexOf(field)]).toBeTruthy();
    expect(await outboxCount()).toBe(before);
  });

  it('refuses control characters and oversized values at login without creating a session', async () => {
    for (const params of [
      { domainName: 'hostile.test\r\n', username: 'admin', password: account.password },
      { domainName: 'hostile.test', username: 'ad\nmin', password: account.password },
      { domainName: 'hostile.test', username: 'x'.repeat(10_000), password: account.password },
      { domainName: 'hostile.test', username: 'admin', password: 'p'.repeat(10_000) },
    ]) {
      const before = (await t.database.db.selectFrom('sessions').select('id').execute()).length;
      const { body } = await t.call('POST', 'user/login/', params);
      expect(body.system.valid).toBe(false);
      expect(body.system.inputs.length).toBeGreaterThan(0);
      expect((await t.database.db.selectFrom('sessions').select('id').execute()).length).toBe(before);
    }
  });

  it('answers a malformed body with a 400 envelope, not a crash', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/p247/contactmail/',
      headers: { 'x-dd-request': '1', 'content-type': 'application/json', cookie },
      payload: '{not json',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().system).toMatchObject({ valid: false, statusCode: 400 });
  });

  it('refuses a body over the size limit', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/p247/contactmail/',
      headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded', cookie },
      payload: `contents=${'x'.repeat(300_000)}`,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().system.valid).toBe(false);
  });

  it('accepts repeated keys and key[] lists in form bodies', async () => {
    const { parseFormBody } = await import('../../src/http/form-body.ts');
    expect(parseFormBody('dns%5B%5D=ns1.example.com&dns%5B%5D=ns2.example.com&a=1&a=2&b=3&one%5B%5D=x')).toEqual({
      dns: ['ns1.example.com', 'ns2.example.com'],
      a: ['1', '2'],
      b: '3',
      one: ['x'],
    });
  });
});
