import { request } from 'node:http';
import { webAddressFrom } from '../doctor/php-page-check.ts';

/** A host and nginx's answer to it here: its HTTP status, 0 for none. */
export interface HostAnswer {
  host: string;
  status: number;
}

function status(address: string, host: string, timeoutMs: number): Promise<number> {
  const at = address.lastIndexOf(':');
  return new Promise((resolve) => {
    const call = request(
      {
        host: address.slice(0, at).replace(/^\[|\]$/g, ''),
        port: Number(address.slice(at + 1)),
        path: '/',
        headers: { host },
        timeout: timeoutMs,
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    call.on('timeout', () => call.destroy());
    call.on('error', () => resolve(0));
    call.end();
  });
}

/**
 * How this machine's nginx (at PANEL_WEB_HTTP_LISTEN) answers each host: a service moved here is
 * proven served (an answer below 500) before its records are switched to this server.
 */
export async function hostsAnswered(httpListen: string, hosts: string[], timeoutMs = 5000): Promise<HostAnswer[]> {
  const address = webAddressFrom(httpListen);
  return Promise.all(hosts.map(async (host) => ({ host, status: await status(address, host, timeoutMs) })));
}
