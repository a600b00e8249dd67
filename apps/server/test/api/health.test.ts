import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
