import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A free window of 100 uids in 40000..59999 (the system's and other runs' accounts avoided). */
export async function freeUidRange(): Promise<{ min: number; max: number }> {
  const { stdout } = await run('getent', ['passwd']);
  const taken = stdout.split('\n').map((line) => Number(line.split(':')[2]));
  for (let tries = 0; tries < 50; tries++) {
    const min = 40_000 + Math.floor(Math.random() * 200) * 100;
    if (!taken.some((uid) => uid >= min && uid <= min + 99)) return { min, max: min + 99 };
  }
  throw new Error('no free uid window');
}

export interface Passwd {
  name: string;
  uid: number;
  gid: number;
  home: string;
  shell: string;
}

/** `getent passwd NAME`, or undefined (exit 2: no such user). */
export async function passwd(name: string): Promise<Passwd | undefined> {
  const answer = await run('getent', ['passwd', name]).catch(() => undefined);
  if (!answer) return undefined;
  const [user = '', , uid, gid, , home = '', shell = ''] = answer.stdout.trim().split(':');
  return { name: user, uid: Number(uid), gid: Number(gid), home, shell };
}

/** `{ a: { b: 1 } }` from `{ 'a.b': 1 }`: a test app's settings as the CLI's PANEL_CONFIG_FILE. */
export function nestedSettings(dotted: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(dotted)) {
    const parts = key.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) {
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1] as string] = value;
  }
  return out;
}

/** Removes the accounts (and their groups) a test made, whatever happened to it. */
export async function removeSystemUsers(names: string[]): Promise<void> {
  for (const name of names) {
    await run('userdel', [name]).catch(() => undefined);
    await run('groupdel', [name]).catch(() => undefined);
  }
}
