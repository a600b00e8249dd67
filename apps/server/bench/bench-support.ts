import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';

/** What the API benchmarks share: a throw-away PostgreSQL database and server child processes. */

const PG_ADMIN_URL = process.env.PANEL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `p247_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: PG_ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * Forks a server script of this folder (run through tsx) and waits for its `ready` message; the
 * child reports a setup failure as an `error` message.
 */
export function startServer<R>(
  script: string,
  env: Record<string, string>,
  profileDir?: string,
): Promise<{ child: ChildProcess; ready: R }> {
  const child = fork(path.join(import.meta.dirname, script), [], {
    execArgv: ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.on('message', (message: { type: string; ready?: R; message?: string }) => {
      if (message.type === 'ready' && message.ready) resolve({ child, ready: message.ready });
      if (message.type === 'error') reject(new Error(`bench server failed: ${message.message}`));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with code ${code}`)));
  });
}

/** Asks a server child to stop and waits for it to exit. */
export async function stopServer(server: ChildProcess | undefined): Promise<void> {
  if (!server) return;
  server.send({ type: 'stop' });
  if (server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
}

/** The CPU time a server child has used so far (it answers over IPC), in microseconds. */
export function cpuTime(server: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: { type?: string; usage?: NodeJS.CpuUsage }) => {
      if (message.type !== 'cpu' || !message.usage) return;
      server.off('message', onMessage);
      resolve(message.usage.user + message.usage.system);
    };
    server.on('message', onMessage);
    server.send({ type: 'cpu' });
  });
}

/** In a server child: answers the parent's `stop` and `cpu` messages. */
export function answerParent(stop: () => Promise<void>): void {
  process.on('message', (message: { type?: string }) => {
    if (message.type === 'stop') void stop();
    if (message.type === 'cpu') process.send?.({ type: 'cpu', usage: process.cpuUsage() });
  });
  process.on('disconnect', () => void stop());
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
export const pad = (value: string, width: number) => value.padEnd(width);
export const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;
