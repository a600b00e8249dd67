import { connect } from 'node:net';

/** host:port → its parts (IPv6 without its brackets). */
export function hostPort(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(address.slice(at + 1)) };
}

/**
 * Connects to `host:port` and reads the server's first line (an SMTP or FTP greeting); resolves
 * with it when it starts with `expected` (e.g. "220").
 */
export function greeting(host: string, port: number, expected: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    let text = '';
    const done = (error: Error | null, line?: string) => {
      socket.destroy();
      if (error) reject(error);
      else resolve(line ?? '');
    };
    signal.addEventListener('abort', () => done(new Error('no greeting')));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const line = text.split('\r\n')[0] ?? '';
      if (!text.includes('\r\n')) return;
      if (line.startsWith(expected)) done(null, `${host}:${port} greets "${line.slice(0, 60)}"`);
      else done(new Error(`${host}:${port} greets "${line.slice(0, 60)}"`));
    });
    socket.on('error', (error) => done(new Error(`${host}:${port}: ${error.message}`)));
  });
}

/**
 * An HTTP GET; resolves when `expected` takes the status (by default below 400: a redirect
 * counts as an answer).
 */
export async function httpAnswers(
  url: string,
  signal: AbortSignal,
  expected: (status: number) => boolean = (status) => status < 400,
): Promise<string> {
  const response = await fetch(url, { signal, redirect: 'manual' });
  if (!expected(response.status)) throw new Error(`${url} answers HTTP ${response.status}`);
  return `${url} answers HTTP ${response.status}`;
}
