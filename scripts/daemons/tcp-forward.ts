import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP forwarder: connections to `listen` (an address of this machine, port chosen) go to
 * `target`. A node in its own network namespace reaches a daemon that listens on the host's
 * loopback only (PostgreSQL on these machines) through it, as it would through the network.
 */
export async function forwardTcp(
  listen: string,
  target: { host: string; port: number },
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = createConnection(target);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, listen, resolve);
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
