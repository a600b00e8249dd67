import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { SystemServiceUserDriver } from '../../apps/server/src/drivers/users/system.driver.ts';
import { SERVICE_USER_NAME } from '../../apps/server/src/drivers/users/users.driver.ts';

/**
 * The stack's hosting services run as system users of their own (`p247s<id>`, the panel's
 * `system` service users driver) when the stack runs as root; otherwise there are none (the
 * embedded driver). The panel makes them: the demo seed at the first start, `panel users sync`
 * at each later one, `panel resource add --service` for a service added by hand. The stack
 * removes them again at every stop, and only them.
 *
 * Which accounts are the stack's: those whose passwd home is one of its service homes
 * (`<dir>/homes/<domain>`, what the panel gives `useradd -d`): no other panel or stack makes an
 * account with a home there. An account of the same name made elsewhere keeps its own home and is
 * never removed, and one of the same name but another number is a clash the panel refuses.
 *
 * Its uids: a window of WINDOW numbers in BAND chosen at the first start among those no account
 * or group uses, kept in `<dir>/service-users.json` so that a restart gives each service the same
 * number again (its files keep it). A window of its own matters beyond the numbers: `panel users
 * sync` removes the accounts in its range that belong to no service of its database, so two
 * stacks (or a stack and a real panel) sharing a range would remove each other's.
 */

const run = promisify(execFile);

/** Out of the panel's default range (PANEL_SERVICE_UID_MIN..MAX, 20000..29999) and of the tests' (40000..59999). */
export const BAND = { min: 30_000, max: 39_999 };
const WINDOW = 100;
const FILE = 'service-users.json';

export interface StackUidRange {
  uidMin: number;
  uidMax: number;
}

interface Entry {
  name: string;
  id: number;
  /** passwd only */
  gid?: number;
  home?: string;
}

export function asRoot(): boolean {
  return process.getuid?.() === 0;
}

/** `getent passwd` or `getent group`, every entry (argument arrays, no shell). */
async function entries(database: 'passwd' | 'group'): Promise<Entry[]> {
  const { stdout } = await run('getent', [database], { maxBuffer: 64 * 1024 * 1024 });
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const fields = line.split(':');
      const entry: Entry = { name: fields[0] ?? '', id: Number(fields[2]) };
      if (database === 'passwd') Object.assign(entry, { gid: Number(fields[3]), home: fields[5] ?? '' });
      return entry;
    });
}

function homesOf(dir: string): string {
  return path.join(path.resolve(dir), 'homes');
}

/** The service users this stack's panel made: named like one, with a home among the stack's. */
function ours(dir: string, passwd: Entry[]): Entry[] {
  const homes = `${homesOf(dir)}${path.sep}`;
  return passwd.filter((user) => SERVICE_USER_NAME.test(user.name) && (user.home ?? '').startsWith(homes));
}

/** The stack's service users on this system now: name and uid, by uid. */
export async function stackUsers(dir: string): Promise<{ name: string; uid: number }[]> {
  if (!asRoot()) return [];
  return ours(dir, await entries('passwd'))
    .map((user) => ({ name: user.name, uid: user.id }))
    .sort((a, b) => a.uid - b.uid);
}

function readRange(dir: string): StackUidRange | undefined {
  const file = path.join(dir, FILE);
  if (!existsSync(file)) return undefined;
  const range = JSON.parse(readFileSync(file, 'utf8')) as Partial<StackUidRange>;
  if (!Number.isSafeInteger(range.uidMin) || !Number.isSafeInteger(range.uidMax)) {
    throw new Error(`${file}: no uidMin and uidMax`);
  }
  return { uidMin: range.uidMin as number, uidMax: range.uidMax as number };
}

/**
 * The uid range of the stack's service users when it runs as root (undefined: the embedded
 * driver): the one kept in its folder, or a free window chosen now. A kept range that another
 * account or group has come to use since is refused with what uses it.
 */
export async function serviceUserRange(dir: string): Promise<StackUidRange | undefined> {
  if (!asRoot()) return undefined;
  const [passwd, groups] = await Promise.all([entries('passwd'), entries('group')]);
  const mine = new Set(ours(dir, passwd).map((user) => user.name));
  // a user of the stack's and its group (the same name) are the stack's; everything else counts
  const others = [...passwd, ...groups].filter((entry) => !mine.has(entry.name));
  const usedIn = (min: number, max: number) => others.filter((entry) => entry.id >= min && entry.id <= max);
  const kept = readRange(dir);
  if (kept) {
    const used = usedIn(kept.uidMin, kept.uidMax);
    if (used.length > 0) {
      throw new Error(
        `the stack's service users' uids ${kept.uidMin}..${kept.uidMax} (${path.join(dir, FILE)}) are now also ` +
          `${used.map((entry) => `${entry.name} (${entry.id})`).join(', ')}'s, not made by this stack ` +
          '(another stack or panel on this machine?): stop it, or remove the file and the stack folder for a new range',
      );
    }
    return kept;
  }
  const free: number[] = [];
  for (let min = BAND.min; min + WINDOW - 1 <= BAND.max; min += WINDOW) {
    if (usedIn(min, min + WINDOW - 1).length === 0) free.push(min);
  }
  const min = free[randomInt(Math.max(free.length, 1))];
  if (min === undefined) throw new Error(`no window of ${WINDOW} free uids in ${BAND.min}..${BAND.max} for the stack`);
  const range = { uidMin: min, uidMax: min + WINDOW - 1 };
  writeFileSync(path.join(dir, FILE), `${JSON.stringify(range, null, 2)}\n`);
  return range;
}

/**
 * Removes the stack's service users and their groups (once nothing runs as them: after the
 * daemons stopped); answers their names. Nothing when not root. userdel may find /etc/passwd
 * locked by another useradd of the moment, or a process of the user still exiting: tried again
 * for a few seconds.
 */
export async function removeStackUsers(dir: string): Promise<string[]> {
  if (!asRoot()) return [];
  const driver = new SystemServiceUserDriver();
  const removed: string[] = [];
  for (const user of ours(dir, await entries('passwd'))) {
    const account = { name: user.name, uid: user.id, gid: user.gid ?? user.id };
    for (let attempt = 1; ; attempt++) {
      try {
        await driver.remove(account);
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    removed.push(user.name);
  }
  return removed;
}
