import type { SessionListData, SessionsEndedData } from '@panel247/contract/sessions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/modules/auth/session.service.ts';
import type { EventBus } from '../../src/modules/realtime/event-bus.ts';
import { PostgresEventBus } from '../../src/modules/realtime/postgres-event-bus.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { connect, listen } from '../support/realtime-client.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe.each(DATABASE_KINDS)('the user’s own sessions on %s', (kind) => {
  let t: TestApp;
  let host: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, { captureLogs: true, config: { trustProxy: true, 'limits.loginPerIp': 500 } });
    host = await listen(t);
  });
  afterAll(() => t.close());

  /** Logs in from a browser and an address; returns the cookie ("name=value"). */
  async function loginFrom(account: BuiltAccount, userAgent: string, ip: string): Promise<string> {
    const { response, body } = await t.call(
      'POST',
      'user/login/',
      { domainName: account.domainName, username: account.username, password: account.password },
      { headers: { 'user-agent': userAgent, 'x-forwarded-for': ip } },
    );
    expect(body.system.valid).toBe(true);
    const cookie = response.cookies.find((c) => c.name.endsWith('p247_sid'));
    if (!cookie) throw new Error('no session cookie');
    return `${cookie.name}=${cookie.value}`;
  }
  const list = (cookie: string, ip = '192.0.2.1') =>
    t.call<SessionListData>('GET', 'user/sessions/', {}, { cookie, headers: { 'x-forwarded-for': ip } });
  const end = (cookie: string, id: string) => t.call('POST', `user/sessions/${id}/end/`, {}, { cookie });
  const info = (cookie: string) => t.call('GET', 'user/info/', {}, { cookie });

  it('lists only the caller’s sessions, this one first and marked, with browser, system and address', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'sessions-list.test' });
    const stranger = await buildAccount(t.database.db, { domainName: 'sessions-stranger.test' });
    const phone = await loginFrom(account, SAFARI_IPHONE, '198.51.100.7');
    t.clock.advance(5);
    const desktop = await loginFrom(account, FIREFOX_WINDOWS, '192.0.2.1');
    await loginFrom(stranger, CHROME_LINUX, '203.0.113.9');

    const { response, body } = await list(desktop);
    expect(response.statusCode).toBe(200);
    const sessions = body.data.sessions;
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({
      browser: 'Firefox 133',
      os: 'Windows 10',
      device: 'desktop',
      ip: '192.0.2.1',
      current: true,
    });
    expect(sessions[1]).toMatchObject({
      browser: 'Safari 17',
      os: 'iOS 17.5',
      device: 'mobile',
      ip: '198.51.100.7',
      current: false,
    });
    expect(sessions[1]?.createdAt).toBeLessThan(sessions[0]?.createdAt ?? 0);
    for (const item of sessions) expect(item.id).toMatch(/^[0-9a-f]{32}$/);

    // Neither a cookie's token nor the hash that finds its session is in the answer.
    const text = response.body;
    for (const cookie of [phone, desktop]) {
      const token = cookie.split('=')[1] as string;
      expect(text).not.toContain(token);
      expect(text).not.toContain(hashToken(token));
    }
  });

  it('says "unknown" for a missing user agent rather than failing', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'sessions-noagent.test' });
    const cookie = await loginFrom(account, '', '192.0.2.1');
    const { body } = await list(cookie);
    expect(body.data.sessions).toEqual([expect.objectContaining({ browser: '', os: '', device: 'other' })]);
  });

  it('ends one session: its next call is the session-lost answer, its open page is told, it is logged', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'sessions-end.test' });
    const other = await loginFrom(account, SAFARI_IPHONE, '198.51.100.7');
    const mine = await loginFrom(account, FIREFOX_WINDOWS, '192.0.2.1');
    const socket = await connect(host, other);
    await socket.next('hello');

    const target = (await list(mine)).body.data.sessions.find((item) => !item.current);
    const answer = await end(mine, target?.id as string);
    expect(answer.body.system.valid).toBe(true);
    expect(answer.body.system.info[0]).toBe('Sesión terminada');

    await socket.next('session.ended');
    expect(await socket.closed).toBe(4401);
    const lost = await info(other);
    expect(lost.body.system.statusCode).toBe(101);
    expect((await info(mine)).body.system.valid).toBe(true);
    expect((await list(mine)).body.data.sessions.map((item) => item.current)).toEqual([true]);
    expect(t.logs.some((line) => line.event === 'auth.session_ended' && line.domain === 'sessions-end.test')).toBe(
      true,
    );
  });

  it('ends every other session and keeps this one', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'sessions-others.test' });
    const first = await loginFrom(account, SAFARI_IPHONE, '198.51.100.7');
    const second = await loginFrom(account, CHROME_LINUX, '203.0.113.9');
    const mine = await loginFrom(account, FIREFOX_WINDOWS, '192.0.2.1');
    const stranger = await buildAccount(t.database.db, { domainName: 'sessions-others-stranger.test' });
    const strangers = await loginFrom(stranger, CHROME_LINUX, '203.0.113.9');

    const answer = await t.call<SessionsEndedData>('POST', 'user/sessions/endothers/', {}, { cookie: mine });
    expect(answer.body.system.valid).toBe(true);
    expect(answer.body.data).toEqual({ ended: 2 });
    for (const cookie of [first, second]) expect((await info(cookie)).body.system.statusCode).toBe(101);
    expect((await info(mine)).body.system.valid).toBe(true);
    expect((await info(strangers)).body.system.valid).toBe(true);
    expect((await list(mine)).body.data.sessions).toHaveLength(1);
    expect(t.logs.some((line) => line.event === 'auth.other_sessions_ended')).toBe(true);

    // Nothing else to end is not an error.
    const again = await t.call<SessionsEndedData>('POST', 'user/sessions/endothers/', {}, { cookie: mine });
    expect(again.body.data).toEqual({ ended: 0 });
  });

  it('answers another user’s session id, a made-up id and a malformed one as unknown, and ends nothing', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'sessions-cross.test' });
    const stranger = await buildAccount(t.database.db, { domainName: 'sessions-cross-stranger.test' });
    const mine = await loginFrom(account, FIREFOX_WINDOWS, '192.0.2.1');
    const theirs = await loginFrom(stranger, CHROME_LINUX, '203.0.113.9');
    const theirId = (await list(theirs)).body.data.sessions[0]?.id as string;

    for (const id of [theirId, '0'.repeat(32), 'not-an-id', hashToken(theirs.split('=')[1] as string)]) {
      const { response, body } = await end(mine, id);
      expect(response.statusCode).toBe(404);
      expect(body.system.valid).toBe(false);
    }
    expect((await info(theirs)).body.system.valid).toBe(true);
  });

  it('does not end the current session from the list: logging out does that', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'sessions-current.test' });
    const mine = await loginFrom(account, FIREFOX_WINDOWS, '192.0.2.1');
    const myId = (await list(mine)).body.data.sessions[0]?.id as string;
    const { response, body } = await end(mine, myId);
    expect(response.statusCode).toBe(409);
    expect(body.system.errors[0]).toBe('Esta es la sesión actual: para terminarla, cierra la sesión');
    expect((await info(mine)).body.system.valid).toBe(true);
  });

  it('refreshes last seen and the address at most once a minute, and asks for a session', async () => {
    const account = await buildAccount(t.database.db, { domainName: 'sessions-seen.test' });
    const mine = await loginFrom(account, FIREFOX_WINDOWS, '192.0.2.1');
    const first = (await list(mine)).body.data.sessions[0];
    t.clock.advance(20);
    const soon = (await list(mine, '192.0.2.50')).body.data.sessions[0];
    expect(soon?.lastSeenAt).toBe(first?.lastSeenAt);
    expect(soon?.ip).toBe('192.0.2.1');
    t.clock.advance(45);
    await list(mine, '192.0.2.60');
    const later = (await list(mine, '192.0.2.60')).body.data.sessions[0];
    expect(later?.lastSeenAt).toBe((first?.lastSeenAt ?? 0) + 65);
    expect(later?.ip).toBe('192.0.2.60');
    expect(later?.createdAt).toBe(first?.createdAt);

    const anonymous = await t.call('GET', 'user/sessions/', {});
    expect(anonymous.body.system.statusCode).toBe(101);
  });
});

describe('a session ended from the list on one instance, used on another (PostgreSQL)', () => {
  let database: TestDatabase;
  let busA: EventBus;
  let busB: EventBus;
  let a: TestApp;
  let b: TestApp;
  let hostA: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    [busA, busB] = await Promise.all([
      PostgresEventBus.connect(database.url as string),
      PostgresEventBus.connect(database.url as string),
    ]);
    a = await buildTestApp('postgres', { database, events: busA });
    b = await buildTestApp('postgres', { database, events: busB });
    hostA = await listen(a);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await Promise.all([busA.close(), busB.close()]);
    await database.destroy();
  });

  it('closes its page on instance A and refuses it there at once, though A had it cached', async () => {
    const account = await buildAccount(database.db, { domainName: 'sessions-cluster.test' });
    const phone = await a.login(account.domainName, account.username, account.password);
    const desktop = await b.login(account.domainName, account.username, account.password);
    // Instance A now holds the phone's session in its cache (5 s by default).
    expect((await a.call('GET', 'user/info/', {}, { cookie: phone })).body.system.valid).toBe(true);
    const socket = await connect(hostA, phone);
    await socket.next('hello');

    const list = await b.call<SessionListData>('GET', 'user/sessions/', {}, { cookie: desktop });
    const target = list.body.data.sessions.find((item) => !item.current);
    const ended = await b.call('POST', `user/sessions/${target?.id}/end/`, {}, { cookie: desktop });
    expect(ended.body.system.valid).toBe(true);

    // The event that told the socket has already dropped A's cached copy (one delivery, in order).
    await socket.next('session.ended');
    expect(await socket.closed).toBe(4401);
    expect((await a.call('GET', 'user/info/', {}, { cookie: phone })).body.system.statusCode).toBe(101);
    expect((await a.call('GET', 'user/info/', {}, { cookie: desktop })).body.system.valid).toBe(true);
  });
});
