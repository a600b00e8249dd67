import type { AddressInfo } from 'node:net';
import type { RealtimeMessage } from '@panel247/contract/realtime';
import { sql } from 'kysely';
import WebSocket from 'ws';
import type { Db } from '../../src/db/database.ts';
import type { TestApp } from './test-app.ts';

/** Helpers for tests of the realtime socket and the PostgreSQL event bus. */

export interface Client {
  messages: RealtimeMessage[];
  closed: Promise<number>;
  next(type: RealtimeMessage['type']): Promise<RealtimeMessage>;
  socket: WebSocket;
}

/** Starts the app on a loopback port; returns "host:port". */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/** Opens the realtime socket like the web client; `next` waits up to 5 s for a message type. */
export function connect(host: string, cookie: string | undefined, origin = `http://${host}`): Promise<Client> {
  const socket = new WebSocket(`ws://${host}/p247/realtime/`, { headers: { origin, ...(cookie ? { cookie } : {}) } });
  const messages: RealtimeMessage[] = [];
  const waiters: { type: string; resolve: (m: RealtimeMessage) => void }[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as RealtimeMessage;
    messages.push(message);
    for (const waiter of waiters.filter((w) => w.type === message.type)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  const client: Client = {
    messages,
    closed,
    socket,
    next: (type) =>
      new Promise((resolve, reject) => {
        const found = messages.find((m) => m.type === type);
        if (found) return resolve(found);
        waiters.push({ type, resolve });
        setTimeout(() => reject(new Error(`no ${type} within 5 s`)), 5000);
      }),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

/** How many connections of this PostgreSQL database are listening for the panel's events. */
export async function listenerCount(db: Db): Promise<number> {
  const { rows } = await sql<{ count: string }>`SELECT count(*) AS count FROM pg_stat_activity
    WHERE datname = current_database() AND query = 'LISTEN panel247_events'`.execute(db);
  return Number(rows[0]?.count);
}

/** Ends every listening connection, as a PostgreSQL restart or an operator's pg_terminate_backend does. */
export async function terminateListeners(db: Db): Promise<void> {
  await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE datname = current_database() AND query = 'LISTEN panel247_events'`.execute(db);
}
