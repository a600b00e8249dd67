import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TailState } from './access-log-tail.ts';

/** A site's host name as the folders name it: checked before it becomes a path. */
const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const MONTH_FILE = /^(\d{4}-\d{2})\.log$/;

/** One site's month of requests, kept as nginx wrote them. */
export interface SiteMonthLog {
  host: string;
  month: string;
  file: string;
  bytes: number;
}

/**
 * The access log lines the statistics keep, per service, site and month
 * (`<root>/<service>/<host>/<YYYY-MM>.log`), and where each service's reading of nginx's log
 * stopped (`state.json`). The root is the panel's own (0700): no customer can reach it, and every
 * file is still opened without following a link.
 */
export class SiteLogs {
  constructor(private readonly root: string) {}

  private serviceDir(serviceId: number): string {
    if (!Number.isSafeInteger(serviceId) || serviceId < 1) throw new Error(`bad service id: ${serviceId}`);
    return path.join(this.root, String(serviceId));
  }

  monthFile(serviceId: number, host: string, month: string): string {
    if (!HOST.test(host) || !/^\d{4}-\d{2}$/.test(month)) throw new Error(`bad site or month: ${host} ${month}`);
    return path.join(this.serviceDir(serviceId), host, `${month}.log`);
  }

  /** Appends lines (each ending in a newline) to a site's month. */
  async append(serviceId: number, host: string, month: string, lines: string): Promise<void> {
    const file = this.monthFile(serviceId, host, month);
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const handle = await open(
      file,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      await handle.write(lines);
    } finally {
      await handle.close();
    }
  }

  /** Every month kept of the service, oldest first. */
  async months(serviceId: number): Promise<SiteMonthLog[]> {
    const dir = this.serviceDir(serviceId);
    const found: SiteMonthLog[] = [];
    for (const host of await readdir(dir).catch(() => [] as string[])) {
      if (!HOST.test(host)) continue;
      for (const name of await readdir(path.join(dir, host)).catch(() => [] as string[])) {
        const month = MONTH_FILE.exec(name)?.[1];
        if (!month) continue;
        const file = path.join(dir, host, name);
        const info = await stat(file).catch(() => null);
        if (info?.isFile()) found.push({ host, month, file, bytes: info.size });
      }
    }
    return found.sort((a, b) => a.month.localeCompare(b.month) || a.host.localeCompare(b.host));
  }

  /**
   * Removes the oldest months until the service's logs fit `budgetBytes`. A site's newest month is
   * kept whole whatever its size: its statistics are made again from it at every refresh, and a
   * partial file would undercount them. Answers the months removed (their summaries stay).
   */
  async prune(serviceId: number, budgetBytes: number): Promise<SiteMonthLog[]> {
    const all = await this.months(serviceId);
    const newest = new Map<string, string>();
    for (const log of all) if ((newest.get(log.host) ?? '') < log.month) newest.set(log.host, log.month);
    let total = all.reduce((sum, log) => sum + log.bytes, 0);
    const removed: SiteMonthLog[] = [];
    for (const log of all) {
      if (total <= budgetBytes) break;
      if (newest.get(log.host) === log.month) continue;
      await rm(log.file, { force: true });
      total -= log.bytes;
      removed.push(log);
    }
    return removed;
  }

  async readState(serviceId: number): Promise<TailState | null> {
    const text = await readFile(path.join(this.serviceDir(serviceId), 'state.json'), 'utf8').catch(() => null);
    if (!text) return null;
    try {
      const state = JSON.parse(text) as TailState;
      return typeof state.inode === 'string' && Number.isSafeInteger(state.offset) ? state : null;
    } catch {
      return null;
    }
  }

  /** Written aside then renamed: a crash leaves the previous state, never half of one. */
  async writeState(serviceId: number, state: TailState): Promise<void> {
    const dir = this.serviceDir(serviceId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, 'state.json');
    await writeFile(`${file}.tmp`, JSON.stringify(state), { mode: 0o600 });
    await rename(`${file}.tmp`, file);
  }

  /** A terminated service's logs. */
  async remove(serviceId: number): Promise<void> {
    await rm(this.serviceDir(serviceId), { recursive: true, force: true });
  }
}
