import { readFile } from 'node:fs/promises';

/** The pid a daemon's pid file holds, or null when there is none to read. */
export async function readPidFile(file: string): Promise<number | null> {
  const pid = Number.parseInt((await readFile(file, 'utf8').catch(() => '')).trim(), 10);
  return Number.isSafeInteger(pid) && pid > 1 ? pid : null;
}
