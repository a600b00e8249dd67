import net from 'node:net';
import type { Logger } from '../../logger.ts';
import {
  DEFAULT_POLICY_LIMITS,
  type PolicyLimits,
  PolicyProtocolError,
  type PolicyRequest,
  PolicyRequestReader,
  policyReply,
} from './policy-protocol.ts';

/** What Postfix is told when the panel cannot decide (its database does not answer). */
export const UNAVAILABLE_ACTION = 'DEFER_IF_PERMIT Service temporarily unavailable';

export interface PolicyServerLimits extends PolicyLimits {
  /** Connections open at once; each Postfix smtpd process keeps one (its default process limit is 100). */
  maxConnections: number;
  /**
   * A connection with no request for this long is closed. Above Postfix's own
   * smtpd_policy_service_max_idle (300 s), so that Postfix, which reuses its connections, is the
   * one that normally closes them.
   */
  idleSeconds: number;
  /** A request begun must end (its empty line) within this many seconds. */
  requestSeconds: number;
  /** Requests of one connection waiting for their answers (Postfix sends one and waits). */
  maxQueued: number;
}

export const DEFAULT_SERVER_LIMITS: PolicyServerLimits = {
  ...DEFAULT_POLICY_LIMITS,
  maxConnections: 200,
  idleSeconds: 330,
  requestSeconds: 30,
  maxQueued: 4,
};

/** Where the service listens: a TCP address, or a Unix socket's path. */
export type PolicyListen = { host: string; port: number } | { path: string };

export interface PolicyServer {
  /** The address it listens on (the port Postfix is to use when 0 was asked for), or its socket. */
  address: PolicyListen;
  /** Stops listening and closes every connection (Postfix reconnects, or applies its default_action). */
  close(): Promise<void>;
}

/**
 * `127.0.0.1:10040`, `[::1]:10040` or `localhost:10040` → host and port; an absolute path → a
 * Unix socket there.
 */
export function parseListenAddress(listen: string): PolicyListen {
  if (/^\/(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+$/.test(listen)) return { path: listen };
  const match = /^(?:\[([0-9a-fA-F:]+)\]|([^:[\]/]+)):(\d{1,5})$/.exec(listen);
  const port = Number(match?.[3]);
  if (!match || port > 65535) throw new Error(`not a host:port address or a socket path: ${listen}`);
  return { host: (match[1] ?? match[2]) as string, port };
}

/**
 * A server speaking the policy protocol on one address (or socket) only. Each request goes to
 * `decide`, one at a time per connection so that answers keep the requests' order; `decide`
 * answering with an error is answered UNAVAILABLE_ACTION, never a permit.
 */
export async function startPolicyServer(options: {
  listen: PolicyListen;
  decide: (request: PolicyRequest) => Promise<string>;
  log: Logger;
  limits?: Partial<PolicyServerLimits>;
}): Promise<PolicyServer> {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const { log } = options;
  const sockets = new Set<net.Socket>();

  const answer = async (request: PolicyRequest) => {
    try {
      return policyReply(await options.decide(request));
    } catch (error) {
      log.error({ err: error, event: 'mail.policy_failed' }, 'mail policy request failed');
      return policyReply(UNAVAILABLE_ACTION);
    }
  };

  const serve = (socket: net.Socket) => {
    sockets.add(socket);
    const reader = new PolicyRequestReader(limits);
    let queued = 0;
    let chain: Promise<void> = Promise.resolve();
    let requestTimer: NodeJS.Timeout | undefined;
    const drop = (reason: string) => {
      log.warn(
        { event: 'mail.policy_connection_dropped', reason, peer: socket.remoteAddress },
        'policy connection dropped',
      );
      socket.destroy();
    };
    socket.setTimeout(limits.idleSeconds * 1000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      let requests: PolicyRequest[];
      try {
        requests = reader.push(chunk);
      } catch (error) {
        if (error instanceof PolicyProtocolError) return drop(error.message);
        throw error;
      }
      // The clock starts with a request's first byte and is not reset by later ones: a peer
      // sending a byte at a time cannot hold the connection past requestSeconds.
      if (!reader.midRequest) {
        clearTimeout(requestTimer);
        requestTimer = undefined;
      } else if (requestTimer === undefined) {
        requestTimer = setTimeout(() => drop('request not finished in time'), limits.requestSeconds * 1000);
      }
      for (const request of requests) {
        queued += 1;
        if (queued > limits.maxQueued) return drop('too many requests waiting');
        chain = chain.then(async () => {
          const reply = await answer(request);
          queued -= 1;
          if (!socket.destroyed) socket.write(reply);
        });
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(requestTimer);
      sockets.delete(socket);
    });
  };

  const server = net.createServer(serve);
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ ...options.listen, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Once listening, an error (out of file descriptors) is logged: unhandled it would end the panel.
  server.on('error', (error) => log.error({ err: error, event: 'mail.policy_server_error' }, 'policy server error'));
  const bound = server.address();
  return {
    address: typeof bound === 'string' || bound === null ? options.listen : { host: bound.address, port: bound.port },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
