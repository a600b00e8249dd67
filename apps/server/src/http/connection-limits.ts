import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  idleSocketSeconds: number;
  headersSeconds: number;
  requestSeconds: number;
  keepAliveSeconds: number;
  connectionsPerAddress: number;
}

/** Fastify's own options for the timeouts (it hands them to Node's HTTP server). */
export function timeoutOptions(limits: ConnectionLimits) {
  return {
    // Node's socket timeout: a connection idle this long, before or between requests, is destroyed.
    connectionTimeout: limits.idleSocketSeconds * 1000,
    keepAliveTimeout: limits.keepAliveSeconds * 1000,
    requestTimeout: limits.requestSeconds * 1000,
  };
}

/**
 * What Fastify has no option for: the headers' deadline, and a cap on the connections one address
 * holds at once (a connection past it is closed at once, before it costs anything). Node checks
 * both deadlines every `connectionsCheckingInterval` (30 s by default, so a few seconds here).
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.headersTimeout = limits.headersSeconds * 1000;
  if (limits.connectionsPerAddress === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.connectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
