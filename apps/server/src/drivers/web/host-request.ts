import { request } from 'node:http';

/** Where nginx takes plain HTTP: PANEL_WEB_HTTP_LISTEN's port on loopback, or its address (a wildcard on loopback). */
export function webAddressFrom(httpListen: string): string {
  const listen = httpListen.trim().split(/\s+/)[0] ?? '80';
  if (/^\d+$/.test(listen)) return `127.0.0.1:${listen}`;
  const at = listen.lastIndexOf(':');
  const host = listen.slice(0, at);
  const port = listen.slice(at + 1);
  if (host === '*' || host === '0.0.0.0') return `127.0.0.1:${port}`;
  if (host === '[::]') return `[::1]:${port}`;
  return `${host}:${port}`;
}

/** GET http://address/path with this Host: the status and the first 64 KiB of the body. */
export function getFromHost(
  address: string,
  host: string,
  pathname: string,
  signal: AbortSignal,
): Promise<{ status: number; body: string }> {
  const at = address.lastIndexOf(':');
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: address.slice(0, at).replace(/^\[|\]$/g, ''),
        port: Number(address.slice(at + 1)),
        path: pathname,
        headers: { host },
        signal,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (body.length < 65_536) body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      },
    );
    call.on('error', (error) => reject(new Error(`${address}: ${error.message}`)));
    call.end();
  });
}
