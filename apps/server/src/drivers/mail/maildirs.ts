import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * The mailboxes' folders under the mail root. Paths are built from validated local parts and
 * domains and checked to stay inside the root; nothing here follows a symlink out of it.
 */
export class Maildirs {
  constructor(private readonly root: string) {}

  private folder(domain: string, localPart: string): string {
    const folder = path.resolve(this.root, domain, localPart);
    if (!folder.startsWith(`${path.resolve(this.root)}${path.sep}`))
      throw new Error('mail folder outside the mail root');
    return folder;
  }

  /** Bytes of every file in the mailbox (0 when it has no folder yet). */
  async usage(domain: string, localPart: string): Promise<number> {
    return sizeOf(this.folder(domain, localPart));
  }

  async dispose(domain: string, localPart: string, mode: 'remove' | 'keep', now: number): Promise<void> {
    const folder = this.folder(domain, localPart);
    const exists = await lstat(folder).then(
      () => true,
      () => false,
    );
    if (!exists) return;
    if (mode === 'remove') {
      await rm(folder, { recursive: true, force: true });
      return;
    }
    const kept = path.join(this.root, '.deleted', domain);
    await mkdir(kept, { recursive: true });
    await rename(folder, path.join(kept, `${localPart}.${now}`));
  }

  /** Removes kept mailboxes older than `days`; returns how many went. */
  async purgeKept(days: number, now: number): Promise<number> {
    let removed = 0;
    const base = path.join(this.root, '.deleted');
    for (const domain of await readdir(base).catch(() => [] as string[])) {
      for (const entry of await readdir(path.join(base, domain)).catch(() => [] as string[])) {
        const stamp = Number(entry.split('.').at(-1));
        if (Number.isFinite(stamp) && stamp < now - days * 86_400) {
          await rm(path.join(base, domain, entry), { recursive: true, force: true });
          removed += 1;
        }
      }
    }
    return removed;
  }
}

async function sizeOf(target: string): Promise<number> {
  const info = await lstat(target).catch(() => undefined);
  if (!info) return 0;
  if (info.isSymbolicLink()) return 0;
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(target)) total += await sizeOf(path.join(target, entry));
  return total;
}
