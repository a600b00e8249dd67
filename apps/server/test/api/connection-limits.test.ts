import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/** Resolves once the server has closed the socket (or after `withinMs`, with false). */
function closedWithin(socket: Socket, withinMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Idle sockets and one address's many sockets, against the listening server (not `inject`). */
describe.each(DATABASE_KINDS)('connection limits on %s', (kind) => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'limits.idleSocketSeconds': 1, 'limits.connectionsPerAddress': 3 } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  it('closes a socket that sends nothing', async () => {
    const socket = await open(port);
    // Well past the one second it may stay idle; nothing depends on how fast the machine is.
    expect(await closedWithin(socket, 20_000)).toBe(true);
  });

  it('refuses an address its connections past the cap, and answers the ones within it', async () => {
    const kept = await Promise.all([open(port), open(port), open(port)]);
    const extra = await open(port);
    expect(await closedWithin(extra, 10_000)).toBe(true);
    const answer = await fetch(`http://127.0.0.1:${port}/p247/no/such/route/`).catch((error: Error) => error);
    // the fetch is a fourth connection too: refused while three are open
    expect(answer).toBeInstanceOf(Error);
    for (const socket of kept) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const later = await fetch(`http://127.0.0.1:${port}/p247/no/such/route/`, {
      headers: { connection: 'close', 'x-dd-request': '1' },
    });
    expect(later.status).toBe(404);
  });
});
