import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { type EventBus, LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { PostgresEventBus } from '../../src/modules/realtime/postgres-event-bus.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { connect, listen, listenerCount, terminateListeners } from '../support/realtime-client.ts';
import { eventually } from '../support/retrying.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

describe('realtime socket, one instance on SQLite', () => {
  let t: TestApp;
  let host: string;
  let account: BuiltAccount;
  const events = new LocalEventBus();

  beforeAll(async () => {
    t = await buildTestApp('sqlite', { events });
    account = await buildAccount(t.database.db, { domainName: 'socket.test' });
    host = await listen(t);
  });
  afterAll(() => t.close());

  it('greets an authenticated socket and pushes permission changes of its user', async () => {
    const cookie = await t.login(account.domainName, account.username, account.password);
    const client = await connect(host, cookie);
    await client.next('hello');
    const admin = new AdminService(t.database.db, events, () => Math.floor(Date.now() / 1000));
    await admin.grant(account.domainName, account.username, 'socket.test', { service_ftp: 'read' });
    expect(await client.next('permissions.changed')).toEqual({
      type: 'permissions.changed',
      resourceId: account.resources['socket.test'],
    });
    client.socket.close();
  });

  it('tells and closes a socket whose session ends', async () => {
    const cookie = await t.login(account.domainName, account.username, account.password);
    const client = await connect(host, cookie);
    await client.next('hello');
    await t.call('POST', 'user/logout/', {}, { cookie });
    await client.next('session.ended');
    expect(await client.closed).toBe(4401);
  });

  it('closes a socket without a session at once', async () => {
    const client = await connect(host, undefined);
    expect(await client.next('session.ended')).toEqual({ type: 'session.ended' });
    expect(await client.closed).toBe(4401);
  });

  it('refuses a cross-origin socket', async () => {
    const cookie = await t.login(account.domainName, account.username, account.password);
    await expect(connect(host, cookie, 'https://evil.example')).rejects.toThrow(/HTTP 403/);
  });
});

describe('realtime events across two API instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let busA: EventBus;
  let busB: EventBus;
  let busCli: EventBus;
  let a: TestApp;
  let b: TestApp;
  let hostA: string;
  let account: BuiltAccount;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const url = database.url as string;
    [busA, busB, busCli] = await Promise.all([
      PostgresEventBus.connect(url),
      PostgresEventBus.connect(url),
      PostgresEventBus.connect(url),
    ]);
    a = await buildTestApp('postgres', { database, events: busA });
    b = await buildTestApp('postgres', { database, events: busB });
    account = await buildAccount(database.db, { domainName: 'cluster.test' });
    hostA = await listen(a);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await Promise.all([busA.close(), busB.close(), busCli.close()]);
    await database.destroy();
  });

  it('tells the sockets of the service’s users on instance A when a change made through B lands, and nobody else', async () => {
    const cookie = await b.login(account.domainName, account.username, account.password);
    const client = await connect(hostA, cookie);
    await client.next('hello');
    const stranger = await buildAccount(database.db, { domainName: 'stranger-cluster.test' });
    const onlooker = await connect(hostA, await a.login(stranger.domainName, stranger.username, stranger.password));
    await onlooker.next('hello');
    const id = account.resources['cluster.test'] as number;
    const parked = await b.call('GET', `service/${id}/parking/active/`, {}, { cookie });
    expect(parked.response.statusCode).toBe(200);
    expect(await client.next('work.changed')).toEqual({ type: 'work.changed', area: 'web', resourceId: id });
    // the stranger's socket, on the same instance, heard nothing of it
    expect(onlooker.messages.map((message) => message.type)).toEqual(['hello']);
    client.socket.close();
    onlooker.socket.close();
  });

  it('delivers a permission change made elsewhere (the CLI) to a socket on instance A', async () => {
    const cookie = await b.login(account.domainName, account.username, account.password);
    const client = await connect(hostA, cookie);
    await client.next('hello');
    const cli = new AdminService(database.db, busCli, () => Math.floor(Date.now() / 1000));
    await cli.grant(account.domainName, account.username, 'cluster.test', { service_ddbb: 'read' });
    expect(await client.next('permissions.changed')).toMatchObject({ resourceId: account.resources['cluster.test'] });
    client.socket.close();
  });

  it('keeps one listening connection per instance through repeated losses, and delivers each event once', async () => {
    const listeners = () => listenerCount(database.db);
    const bus = await PostgresEventBus.connect(database.url as string, { retryMs: 50 });
    try {
      const received: unknown[] = [];
      bus.subscribe((event) => received.push(event));
      await eventually(async () => (await listeners()) === 4);
      for (let loss = 1; loss <= 4; loss += 1) {
        const before = bus.epoch;
        await terminateListeners(database.db);
        await eventually(async () => bus.epoch !== undefined && bus.epoch !== before && (await listeners()) === 4);
        received.length = 0;
        await busCli.publish({ type: 'permissions.changed', userIds: [loss], resourceId: null });
        await eventually(async () => received.length > 0);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(received).toEqual([{ type: 'permissions.changed', userIds: [loss], resourceId: null }]);
        expect(await listeners()).toBe(4);
      }
    } finally {
      await bus.close();
    }
  });

  it('ends the socket on instance A when the session is closed through instance B', async () => {
    const cookie = await b.login(account.domainName, account.username, account.password);
    const client = await connect(hostA, cookie);
    await client.next('hello');
    const { body } = await b.call('POST', 'user/logout/', {}, { cookie });
    expect(body.system.valid).toBe(true);
    await client.next('session.ended');
    expect(await client.closed).toBe(4401);
    // And the session is gone for instance A's HTTP calls too (sessions live in the database).
    expect((await a.call('POST', 'user/info/', {}, { cookie })).body.system.statusCode).toBe(101);
  });
});

/** An event bus whose delivery can be marked as broken (as while a PostgreSQL listener reconnects). */
class InterruptibleBus extends LocalEventBus {
  delivering = true;
  override get epoch(): number | undefined {
    return this.delivering ? 0 : undefined;
  }
}

describe.each(['sqlite', 'postgres'] as const)(
  'session and permission caches while events may be missed, on %s',
  (kind) => {
    let t: TestApp;
    let bus: InterruptibleBus;
    let account: BuiltAccount;

    beforeAll(async () => {
      bus = new InterruptibleBus();
      t = await buildTestApp(kind, { events: bus, config: { 'session.cacheSeconds': 60 } });
      account = await buildAccount(t.database.db, { domainName: 'cache.test' });
    });
    afterAll(() => t.close());

    it('trusts a cached session only while the bus delivers: an ended session is refused at once when it does not', async () => {
      const cookie = await t.login(account.domainName, account.username, account.password);
      expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.statusCode).toBe(200);
      // ended behind the cache's back (another instance, whose event this one would miss)
      await t.database.db.deleteFrom('sessions').execute();
      expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.statusCode).toBe(200);
      bus.delivering = false;
      expect((await t.call('POST', 'user/info/', {}, { cookie })).body.system.statusCode).toBe(101);
      bus.delivering = true;
    });
  },
);
