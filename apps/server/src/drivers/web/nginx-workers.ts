import { readdir, readFile } from 'node:fs/promises';

/**
 * `nginx -s reload` only signals the master and returns: the master then reads the new
 * configuration, starts new workers and tells the old ones to finish (their title becomes
 * "worker process is shutting down"). Until the new workers accept, a request still gets the old
 * configuration, so a user who opens a site right after saving it would see the old site. These
 * helpers let the driver wait for the new generation, reading /proc (Linux).
 */

const WORKER_TITLE = 'nginx: worker process';

/** The pids of the master's workers that accept requests (not those shutting down). */
export async function acceptingWorkers(masterPid: number): Promise<Set<number>> {
  const workers = new Set<number>();
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
        // "pid (comm) state ppid …": the name may hold spaces and parentheses, so read after the last ')'
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid !== masterPid) return;
        const title = (await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ').trim();
        if (title === WORKER_TITLE) workers.add(Number(entry));
      }),
  );
  return workers;
}

/**
 * Whether the reload took effect: some workers accept, and none of them is one of `before` (the
 * workers of the previous configuration).
 */
export async function newGenerationAccepts(masterPid: number, before: Set<number>): Promise<boolean> {
  const now = await acceptingWorkers(masterPid);
  return now.size > 0 && [...now].every((pid) => !before.has(pid));
}
