import { readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { type RunningDaemon, requireBinary, startForeground } from './daemon-harness.ts';

/**
 * What every harness that starts nginx and PHP-FPM 8.2 shares: the web user, foreground starts
 * that leave /etc alone (nginx needs -e: Debian's build opens /var/log/nginx/error.log before it
 * reads the config), template filling and waiting for a pool's socket.
 */

/** Debian's web user: PHP-FPM's pools and nginx's workers run as it when the harness runs as root. */
export const WEB_USER = { name: 'www-data', uid: 33, gid: 33 };

export interface WebIdentity {
  asRoot: boolean;
  /** '' when not root: the daemons then run as the current user. */
  user: string;
  group: string;
  uid: number;
  gid: number;
}

export function webIdentity(): WebIdentity {
  const asRoot = process.getuid?.() === 0;
  return asRoot
    ? { asRoot, user: WEB_USER.name, group: WEB_USER.name, uid: WEB_USER.uid, gid: WEB_USER.gid }
    : { asRoot, user: '', group: '', uid: -1, gid: -1 };
}

export function nginxBinary(): string {
  return requireBinary('nginx', 'nginx');
}

export function phpFpmBinary(): string {
  return requireBinary('php-fpm8.2', 'php8.2-fpm');
}

export function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The -p/-c/-e every nginx command of a run uses (start, -t, -s reload). */
export function nginxArgs(prefix: string, config: string, errorLog: string): string[] {
  return ['-p', prefix.endsWith('/') ? prefix : `${prefix}/`, '-c', config, '-e', errorLog];
}

export function startNginx(prefix: string, config: string, errorLog: string): RunningDaemon {
  return startForeground(nginxBinary(), [...nginxArgs(prefix, config, errorLog), '-g', 'daemon off;']);
}

export function startPhpFpm(config: string): RunningDaemon {
  return startForeground(phpFpmBinary(), ['-F', '-y', config]);
}

/** Waits until PHP-FPM has opened the socket (or has exited, which is an error). */
export async function waitForSocket(socket: string, fpm: RunningDaemon, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (
    !(await access(socket).then(
      () => true,
      () => false,
    ))
  ) {
    if (Date.now() > until || fpm.process.exitCode !== null) throw new Error(`php-fpm opened no socket ${socket}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
