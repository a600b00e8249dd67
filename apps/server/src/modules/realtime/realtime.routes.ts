import type { RealtimeMessage } from '@panel247/contract/realtime';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { clientCallOf } from '../../http/client-call-of.ts';
import type { SessionService } from '../auth/session.service.ts';
import type { EventBus } from './event-bus.ts';

interface Connection {
  socket: WebSocket;
  userId: number;
  sessionId: string;
}

const PING_MS = 30_000;

/**
 * The realtime socket: authenticated by the session cookie when it opens, it pushes the events of
 * the bus to the sockets they concern. A socket whose session ends is told so and closed.
 */
export function registerRealtimeRoutes(
  app: FastifyInstance,
  options: { path: string; sessions: SessionService; events: EventBus },
) {
  const connections = new Set<Connection>();

  const unsubscribe = options.events.subscribe((event) => {
    for (const connection of connections) {
      if (event.type === 'permissions.changed' && event.userIds.includes(connection.userId)) {
        send(connection.socket, { type: 'permissions.changed', resourceId: event.resourceId });
      }
      if (event.type === 'work.changed' && event.userIds.includes(connection.userId)) {
        send(connection.socket, { type: 'work.changed', area: event.area, resourceId: event.resourceId });
      }
      if (event.type === 'session.ended' && event.sessionIds.includes(connection.sessionId)) {
        send(connection.socket, { type: 'session.ended' });
        connection.socket.close(4401, 'session ended');
      }
    }
  });

  const ping = setInterval(() => {
    for (const connection of connections) connection.socket.ping();
  }, PING_MS);
  ping.unref();

  app.addHook('onClose', async () => {
    clearInterval(ping);
    unsubscribe();
    for (const connection of connections) connection.socket.close(1001, 'server shutting down');
  });

  app.get(options.path, { websocket: true }, async (socket, request) => {
    let actor: Awaited<ReturnType<SessionService['authenticate']>>;
    try {
      actor = await options.sessions.authenticate(clientCallOf(request));
    } catch {
      send(socket, { type: 'session.ended' });
      socket.close(4401, 'no session');
      return;
    }
    const connection = { socket, userId: actor.userId, sessionId: actor.sessionId };
    connections.add(connection);
    socket.on('close', () => connections.delete(connection));
    // The socket only talks; anything the browser sends is ignored.
    socket.on('message', () => undefined);
    send(socket, { type: 'hello' });
  });
}

function send(socket: WebSocket, message: RealtimeMessage) {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}
