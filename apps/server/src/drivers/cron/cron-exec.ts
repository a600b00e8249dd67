import { spawn } from 'node:child_process';
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

/**
 * A URL of one of the service's sites, asked with GET; redirects are not followed (a site may
 * send its cron URL on to anywhere). 2xx and 3xx count as success (exit 0), anything else as a
 * failure (exit 1); the status line and the body's start are the output.
 */
export async function fetchCronUrl(url: string, timeoutMs: number, maxBytes: number): Promise<CronOutcome> {
  const output = new OutputTail(maxBytes);
  try {
    const response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'user-agent': 'Panel247-cron' },
    });
    output.add(Buffer.from(`HTTP ${response.status} ${response.statusText}\n`));
    if (response.body)
      for await (const chunk of response.body) {
        output.add(Buffer.from(chunk));
        if (output.full) break;
      }
    const ok = response.status < 400;
    return { exitCode: ok ? 0 : 1, outcome: ok ? 'ok' : 'failed', output: output.text() };
  } catch (error) {
    const timeout = (error as Error).name === 'TimeoutError';
    return { exitCode: null, outcome: timeout ? 'timeout' : 'failed', output: (error as Error).message };
  }
}
