import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';

/** One service of a running stack: the processes it is made of and where it answers. */
export interface StackService {
  pids: number[];
  /** host:port */
  address: string;
}

/** What a running stack writes into its folder, for `status` and `down` from another shell. */
export interface StackState {
  /** The foreground `npm run stack` process, which stops everything on SIGTERM or Ctrl-C. */
  pid: number;
  startedAt: string;
  services: Record<string, StackService>;
}

const STATE_FILE = 'stack.json';

export function readState(dir: string): StackState | null {
  const file = path.join(dir, STATE_FILE);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StackState;
  } catch {
    return null;
  }
}

export function writeState(dir: string, state: StackState): void {
  writeFileSync(path.join(dir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
}

export function clearState(dir: string): void {
  rmSync(path.join(dir, STATE_FILE), { force: true });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function listening(address: string, timeoutMs = 1000): Promise<boolean> {
  const [host, port] = [
    address.slice(0, address.lastIndexOf(':')),
    Number(address.slice(address.lastIndexOf(':') + 1)),
  ];
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface ServiceStatus {
  ok: boolean;
  pid: number | null;
  address: string;
}

/** Each service is ok when all its processes live and its address accepts a connection. */
export async function statusOf(state: StackState | null): Promise<Record<string, ServiceStatus>> {
  const services: Record<string, ServiceStatus> = {};
  for (const [name, service] of Object.entries(state?.services ?? {})) {
    const running = service.pids.length > 0 && service.pids.every(alive);
    services[name] = {
      ok: running && (await listening(service.address)),
      pid: service.pids[0] ?? null,
      address: service.address,
    };
  }
  return services;
}
