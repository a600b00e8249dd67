import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The apparent size of a folder tree in bytes, like `du -sb`: symbolic links are counted as
 * links and never followed, so a link out of the home adds nothing. The walk stops after
 * `maxEntries` entries (the answer is then a lower bound) so a huge home cannot stall a call.
 */
export async function diskUsage(root: string, maxEntries = 200_000): Promise<number> {
  let total = 0;
  let seen = 0;
  const pending = [root];
  while (pending.length > 0 && seen < maxEntries) {
    const dir = pending.pop() as string;
    const info = await lstat(dir).catch(() => null);
    if (!info) continue;
    total += info.size;
    seen += 1;
    if (!info.isDirectory()) continue;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (seen < maxEntries) {
        const stats = await lstat(full).catch(() => null);
        if (stats) total += stats.size;
        seen += 1;
      }
    }
  }
  return total;
}
