import { createServer, request, type Server } from 'node:http';

/**
 * The clean root's only way out: an HTTP proxy on the host side of its veth pair that forwards
 * apt's requests to the machine's Debian mirror and refuses every other host. The root has no
 * route to anything else, so `apt-get install` inside works and nothing else reaches out.
 */
export interface MirrorProxy {
  port: number;
  close(): Promise<void>;
}

export async function startMirrorProxy(address: string, allowedHosts: string[]): Promise<MirrorProxy> {
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  const server: Server = createServer((incoming, answer) => {
    let target: URL;
    try {
      target = new URL(incoming.url ?? '');
    } catch {
      answer.writeHead(400).end();
      return;
    }
    if (target.protocol !== 'http:' || !allowed.has(target.hostname.toLowerCase())) {
      answer.writeHead(403).end();
      return;
    }
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: incoming.method,
        headers: { ...incoming.headers, host: target.host },
      },
      (upstream) => {
        answer.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(answer);
      },
    );
    forwarded.on('error', () => {
      if (!answer.headersSent) answer.writeHead(502);
      answer.end();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, resolve);
  });
  const bound = server.address();
  if (!bound || typeof bound === 'string') throw new Error('the mirror proxy has no port');
  return {
    port: bound.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
