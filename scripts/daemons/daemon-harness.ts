import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Starts real daemons for the integration tests and for `npm run stack`: on loopback, in a folder
 * of their own, recording the PID it started and stopping exactly that one. Commands are argument
 * arrays, never a shell. In CI (CI=true) a missing daemon binary is an error, never a skip.
 */

export const execFileAsync = promisify(execFile);

/**
 * Ports handed to daemons come from below Linux's ephemeral range (32768-60999): a port the
 * kernel picked for `listen(0)` is also one it hands to outgoing connections, and under load one
 * of those (a client of another test) took it between the probe and the daemon's own bind, and
 * Postfix failed to start. Random in the range, so that test files in other processes rarely
 * meet; never one this process handed out already; bound once to check that it is free.
 */
const DAEMON_PORTS = { low: 20_000, high: 32_000 };
const handedOut = new Set<number>();

async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (bound) await new Promise((resolve) => server.close(resolve));
  return bound;
}

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = DAEMON_PORTS.low + Math.floor(Math.random() * (DAEMON_PORTS.high - DAEMON_PORTS.low));
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${DAEMON_PORTS.low} and ${DAEMON_PORTS.high}`);
}

export function workDir(name: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `p247-${name}-`));
}

/**
 * Where a harness puts a daemon. Tests take a new temporary folder and free ports, and the folder
 * goes when the daemon stops; the stack keeps each daemon's folder under its state folder, with
 * its data, and the ports it chose the first time, so a restart finds both again.
 */
export interface Placement {
  folder(name: string): Promise<string>;
  /** A port by a name unique in the run (`powerdns.api`). */
  port(name: string): Promise<number>;
  /** Whether the folder is the run's alone (removed at stop) or kept. */
  temporary: boolean;
}

export const temporaryPlacement: Placement = {
  folder: (name) => workDir(name),
  port: () => freePort(),
  temporary: true,
};

/** Folders under `root`, kept; ports saved in `root/ports.json` the first time they are chosen. */
export function keptPlacement(root: string): Placement {
  const file = path.join(root, 'ports.json');
  return {
    temporary: false,
    async folder(name) {
      const folder = path.join(root, name);
      mkdirSync(folder, { recursive: true });
      return folder;
    },
    async port(name) {
      const ports: Record<string, number> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
      if (!ports[name]) {
        ports[name] = await freePort();
        writeFileSync(file, `${JSON.stringify(ports, null, 2)}\n`);
      }
      return ports[name] as number;
    },
  };
}

/** Throws a clear error when a daemon's binary is missing: tests that need it fail, never skip. */
export function requireBinary(binary: string, debianPackage: string): string {
  for (const dir of ['/usr/sbin', '/usr/bin', '/sbin', '/bin']) {
    const candidate = path.join(dir, binary);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${binary} is missing: install Debian's ${debianPackage} (scripts/install-system-deps.sh)`);
}

/**
 * Resolves as soon as something listens on the port. The deadline is for a daemon that never
 * opens it, not a timing: on a busy 2-core machine (the API and browser tiers beside) Postfix once
 * took over 10 s to open its SMTP port, so it is generous.
 */
export async function waitForPort(port: number, timeoutMs = 60_000, host = '127.0.0.1'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs} ms`);
}

export interface RunningDaemon {
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Spawns a daemon in the foreground and keeps its output for error messages. */
export function startForeground(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): RunningDaemon {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // the last 64 KiB is what an error message needs; a daemon of the stack may run for days
  const keep = (chunk: Buffer) => {
    output = (output + chunk).slice(-65_536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * For a script that serves daemons in a server's namespace until it is told to stop: on SIGTERM or
 * SIGINT, `stop` once, then exit.
 */
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const once = async () => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void once());
  process.on('SIGINT', () => void once());
}
