import { spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import type { FileOwner } from '../files/confined/protocol.ts';

/** How a task's run ended: its exit status (null when it was stopped), and what it printed. */
export interface CronOutcome {
  exitCode: number | null;
  outcome: 'ok' | 'failed' | 'timeout';
  output: string;
}

/** Output kept in arrival order up to `max` bytes; what is beyond is counted and said so. */
class OutputTail {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly max: number) {}

  add(chunk: Buffer): void {
    const room = this.max - this.kept;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.dropped += Math.max(0, chunk.length - Math.max(0, room));
  }

  get full(): boolean {
    return this.kept >= this.max;
  }

  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped > 0 ? `${text}\n[… ${this.dropped} more bytes]` : text;
  }
}

/**
 * A PHP script of a home, run with PHP's CLI as the service's own user and group (no
 * supplementary groups: libuv drops them), from the home, with a bare environment. The path is
 * opened by PHP with the user's rights, so a link the customer planted reaches only what that
 * user may read. Past `timeoutMs` the whole process group is killed.
 */
export function runPhpScript(options: {
  php: string;
  home: string;
  script: string;
  owner: FileOwner;
  timeoutMs: number;
  maxBytes: number;
}): Promise<CronOutcome> {
  return new Promise((resolve) => {
    const output = new OutputTail(options.maxBytes);
    const child = spawn(options.php, ['-f', options.script], {
      cwd: options.home,
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: options.home, LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      uid: options.owner.uid,
      gid: options.owner.gid,
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // it ended meanwhile
      }
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => output.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.add(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, outcome: 'failed', output: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) resolve({ exitCode: null, outcome: 'timeout', output: output.text() });
      else resolve({ exitCode: code, outcome: code === 0 ? 'ok' : 'failed', output: output.text() });
    });
  });
}

/** Where this server's nginx listens for plain and TLS requests. */
export interface LocalWeb {
  http: { host: string; port: number };
  https: { host: string; port: number };
}

/** nginx's `listen` value (`80`, `127.0.0.1:8080`, `[::1]:443`) as where to connect to it here. */
export function localListen(listen: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(listen.trim());
  if (!match) return { host: '127.0.0.1', port: Number(listen) };
  const host = match[1] ?? match[2] ?? '127.0.0.1';
  return {
    host: host === '*' || host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host,
    port: Number(match[3]),
  };
}

/**
 * A URL of one of the service's sites, asked with GET of this server's own nginx with the URL's
 * host name (as Host and, over TLS, as SNI): the name is never looked up, since the customer
 * writes its DNS and could point it at an address inside the provider's network. Redirects are
 * not followed. 2xx and 3xx count as success (exit 0), anything else as a failure (exit 1); the
 * status line and the body's start are the output.
 */
export function fetchCronUrl(url: string, web: LocalWeb, timeoutMs: number, maxBytes: number): Promise<CronOutcome> {
  const target = new URL(url);
  const tls = target.protocol === 'https:';
  const local = tls ? web.https : web.http;
  const output = new OutputTail(maxBytes);
  return new Promise((resolve) => {
    const options = {
      host: local.host,
      port: local.port,
      method: 'GET',
      path: `${target.pathname}${target.search}`,
      headers: { host: target.host, 'user-agent': 'Panel247-cron' },
      timeout: timeoutMs,
    };
    const request = tls
      ? https.request({ ...options, servername: target.hostname, rejectUnauthorized: false })
      : http.request(options);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      output.add(Buffer.from(`HTTP ${status} ${response.statusMessage ?? ''}\n`));
      response.on('data', (chunk: Buffer) => {
        output.add(chunk);
        if (output.full) response.destroy();
      });
      // after the body's end, or once it was cut at `maxBytes`
      response.on('close', () => {
        const ok = status < 400;
        resolve({ exitCode: ok ? 0 : 1, outcome: ok ? 'ok' : 'failed', output: output.text() });
      });
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) =>
      resolve({
        exitCode: null,
        outcome: error.message === 'timed out' ? 'timeout' : 'failed',
        output: error.message,
      }),
    );
    request.end();
  });
}
