import { lchown, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { SyncOptions } from '../sync-options.ts';

/** A mailbox folder that disagrees with the panel: no such mailbox, or files the mail user cannot use. */
export interface MailFolderDrift {
  /** `domain/local part`, as under the mail root. */
  folder: string;
  problem: 'extra' | 'owner';
  /** Whether `sync` put it right (never on a dry run). */
  repaired: boolean;
}

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

  /** The mailbox's home (Dovecot's mail_home): its Maildir and its Sieve scripts live there. */
  home(domain: string, localPart: string): string {
    return this.folder(domain, localPart);
  }

  /**
   * Creates the mailbox's home and the given folders inside it, owned like the mail root (the mail
   * user Dovecot runs as) when the panel runs as root, so Dovecot can write there too.
   */
  async makeOwned(domain: string, localPart: string, ...inside: string[]): Promise<(file: string) => Promise<void>> {
    const owner = process.getuid?.() === 0 ? await lstat(this.root).catch(() => undefined) : undefined;
    const own = async (file: string) => {
      if (owner) await lchown(file, owner.uid, owner.gid);
    };
    const home = this.folder(domain, localPart);
    for (const folder of [path.dirname(home), home, ...inside.map((name) => path.join(home, name))]) {
      const made = await mkdir(folder, { recursive: true });
      if (made !== undefined) await own(folder);
    }
    return own;
  }

  /**
   * Bytes of every file of the mailbox's mail (0 before its first message): its Maildir, what
   * Dovecot's quota counts; the Sieve scripts and Dovecot's own files beside it are not mail.
   */
  async usage(domain: string, localPart: string): Promise<number> {
    return sizeOf(path.join(this.folder(domain, localPart), 'Maildir'));
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

  /**
   * Compares the folders under the root with these mailboxes. A folder no mailbox owns (a mailbox
   * deleted by hand, a restore of old files) is kept aside as a deleted mailbox's would be, so
   * `purgeKept` removes it in time and nothing is lost at once. When the panel runs as root, a
   * mailbox holding files of another owner than the root's (the mail user Dovecot runs as) is
   * given back to it; links are not followed.
   */
  async sync(
    mailboxes: { domain: string; localPart: string }[],
    options: SyncOptions & { now: number },
  ): Promise<MailFolderDrift[]> {
    const wanted = new Set(mailboxes.map((mailbox) => `${mailbox.domain}/${mailbox.localPart}`));
    const owner = await lstat(this.root).catch(() => undefined);
    const drift: MailFolderDrift[] = [];
    for (const domain of await folders(this.root)) {
      for (const localPart of await folders(path.join(this.root, domain))) {
        const folder = `${domain}/${localPart}`;
        if (!wanted.has(folder)) {
          if (!options.dryRun) await this.dispose(domain, localPart, 'keep', options.now);
          drift.push({ folder, problem: 'extra', repaired: !options.dryRun });
          continue;
        }
        if (!owner || process.getuid?.() !== 0) continue;
        const foreign = await foreignEntries(this.folder(domain, localPart), owner);
        if (foreign.length === 0) continue;
        if (!options.dryRun) for (const entry of foreign) await lchown(entry, owner.uid, owner.gid);
        drift.push({ folder, problem: 'owner', repaired: !options.dryRun });
      }
    }
    return drift;
  }

  /** The mail user that owns the root, whose rights a mail move's copy runs with (none when the panel is not root). */
  async owner(): Promise<{ uid: number; gid: number } | undefined> {
    if (process.getuid?.() !== 0) return undefined;
    const info = await lstat(this.root);
    return { uid: info.uid, gid: info.gid };
  }

  /** A mail domain's folder (every mailbox's home below it), as a move copies it. */
  domainFolder(domain: string): string {
    return this.folder(domain, '.');
  }

  /** Makes the domain's folder, owned like the root, if it is not there (a mail move's target). */
  async ensureDomain(domain: string): Promise<void> {
    const folder = this.domainFolder(domain);
    const made = await mkdir(folder).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
        return false;
      },
    );
    const owner = await this.owner();
    if (made && owner) await lchown(folder, owner.uid, owner.gid);
  }

  /** Whether the mailbox's home is here (a mail move's proof that its copy arrived). */
  async hasHome(domain: string, localPart: string): Promise<boolean> {
    return lstat(this.folder(domain, localPart)).then(
      (info) => info.isDirectory(),
      () => false,
    );
  }

  /** The domain's folder and everything in it removed (a mail move's old copy); links are removed, never followed. */
  async removeDomain(domain: string): Promise<void> {
    await rm(this.domainFolder(domain), { recursive: true, force: true });
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

/** The sub-folders of a folder, without the hidden ones (`.deleted` holds the kept mailboxes). */
async function folders(parent: string): Promise<string[]> {
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}

/** Every path in the tree (the top included) whose owner or group is not the given one. */
async function foreignEntries(top: string, owner: { uid: number; gid: number }): Promise<string[]> {
  const found: string[] = [];
  const pending = [top];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const info = await lstat(current).catch(() => undefined);
    if (!info) continue;
    if (info.uid !== owner.uid || info.gid !== owner.gid) found.push(current);
    if (info.isDirectory()) {
      for (const entry of await readdir(current).catch(() => [] as string[])) pending.push(path.join(current, entry));
    }
  }
  return found;
}
