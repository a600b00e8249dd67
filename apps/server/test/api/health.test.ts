import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRole, NodesService } from '../../src/modules/nodes/nodes.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS } from '../support/test-database.ts';

/** An event bus that is reconnecting: events may be missed meanwhile. */
class ReconnectingBus extends LocalEventBus {
  override get epoch(): number | undefined {
    return undefined;
  }
}

describe.each(DATABASE_KINDS)('GET health/ on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers ok without a session or the CSRF header, and nothing else', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/p247/health/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
    // no version, host or server name in the answer or its headers
    expect(response.body).not.toMatch(/\d+\.\d+|localhost|panel247/i);
    expect(response.headers.server).toBeUndefined();
  });

  it("counts the provider's servers that are down, and stays ok: the names are doctor's", async () => {
    const servers = await buildTestApp(kind);
    try {
      const nodes = new NodesService(servers.database.db, () => Math.floor(servers.clock.now() / 1000));
      const server = {
        roles: ['web'] as NodeRole[],
        capacity: 10,
        channelUrl: 'http://127.0.0.1:9/',
        ipv4: '',
        ipv6: '',
      };
      await nodes.add({ ...server, name: 'web1', host: 'web1.example.net' });
      await nodes.add({ ...server, name: 'web2', host: 'web2.example.net' });
      await nodes.heartbeat('web1');
      await nodes.heartbeat('web2');
      const get = () => servers.app.inject({ method: 'GET', url: '/p247/health/' });
      expect((await get()).json()).toEqual({ status: 'ok' });

      servers.clock.advance(45);
      await nodes.heartbeat('web1');
      servers.clock.advance(30); // web2 silent for 75 s, web1 for 30 s
      const response = await get();
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', serversDown: 1 });
      expect(response.body).not.toMatch(/web2|example/);
    } finally {
      await servers.close();
    }
  });

  it('is degraded (503) while the realtime events may be missed', async () => {
    const reconnecting = await buildTestApp(kind, { events: new ReconnectingBus() });
    try {
      const response = await reconnecting.app.inject({ method: 'GET', url: '/p247/health/' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'degraded' });
    } finally {
      await reconnecting.close();
    }
  });

  it('is degraded (503) when its job engine takes no work', async () => {
    const stopped = await buildTestApp(kind);
    try {
      await stopped.services.jobs.stop();
      const response = await stopped.app.inject({ method: 'GET', url: '/p247/health/' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'degraded' });
    } finally {
      await stopped.close();
    }
  });

  it('is degraded (503) when its database does not answer, and says no more', async () => {
    const database = await createTestDatabase(kind);
    const broken = await buildTestApp(kind, { database });
    try {
      await database.destroy();
      const response = await broken.app.inject({ method: 'GET', url: '/p247/health/' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'degraded' });
    } finally {
      await broken.app.close();
    }
  });
});
