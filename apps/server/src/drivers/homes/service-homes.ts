import { chown, lchown, lstat, mkdir, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isServiceFolder } from '@panel247/contract/hosting-rules';
import { FieldErrors } from '../../errors.ts';
import type { SyncOptions } from '../sync-options.ts';
import { diskUsage } from './disk-usage.ts';

/**
 * A folder as typed, relative to a service home, normalised ('' = the home) — or a field error on
 * `field`. Pure: it checks the text only; `ServiceHomes.prepare` checks the disk.
 */
export function normaliseServiceFolder(folder: string, field: string): string {
  const trimmed = folder.replace(/^\/+|\/+$/g, '');
  if (folder.startsWith('/') && trimmed !== '') throw FieldErrors.one(field, 'hosting.error.folder_absolute');
  if (trimmed === '') return '';
  if (!isServiceFolder(trimmed)) throw FieldErrors.one(field, 'hosting.error.folder');
  return trimmed;
}

/**
 * Every hosting service has a home folder, <root>/<domain>. Folders given by users (FTP accounts,
 * sites) are relative to it: absolute paths, "..", control and shell characters are refused, and
 * so is any folder whose existing part resolves (through symlinks) outside the home.
 */
export class ServiceHomes {
  constructor(
    private readonly root: string,
    private readonly owner: { uid: number; gid: number },
  ) {}

  home(domain: string): string {
    return path.join(path.resolve(this.root), domain);
  }

  /** Bytes the service's home holds (counted up to a bound, see disk-usage.ts). */
  usage(domain: string): Promise<number> {
    return diskUsage(this.home(domain));
  }

  /** The absolute folder, checked against symlink escapes, created (owned by the web user) if missing. */
  async prepare(domain: string, relative: string, field: string): Promise<string> {
    const home = this.home(domain);
    await mkdir(home, { recursive: true });
    const target = path.join(home, relative);
    // The deepest part that exists must really be inside the home.
    let existing = target;
    while (
      !(await lstat(existing).then(
        () => true,
        () => false,
      ))
    )
      existing = path.dirname(existing);
    const real = await realpath(existing);
    const realHome = await realpath(home);
    if (real !== realHome && !real.startsWith(`${realHome}${path.sep}`)) {
      throw FieldErrors.one(field, 'hosting.error.folder_escape');
    }
    await mkdir(target, { recursive: true });
    await chown(target, this.owner.uid, this.owner.gid).catch(() => undefined);
    return target;
  }

  /**
   * Checks an account's home folder (absolute, as stored) and puts it right where that is safe: a
   * missing folder is created and a foreign-owned one given back to the hosting user (the folder
   * itself; what is inside stays as it is). A file or link in its place, or a path outside the
   * root, is only reported; a dry run changes nothing. Answers nothing when the folder is as it should be.
   */
  async repair(
    home: string,
    options: SyncOptions,
  ): Promise<{ problem: 'missing' | 'not_a_folder' | 'owner' | 'outside_root'; repaired: boolean } | undefined> {
    const root = path.resolve(this.root);
    if (!path.resolve(home).startsWith(`${root}${path.sep}`)) return { problem: 'outside_root', repaired: false };
    const info = await lstat(home).catch(() => undefined);
    if (!info) {
      if (options.dryRun) return { problem: 'missing', repaired: false };
      await mkdir(home, { recursive: true });
      await chown(home, this.owner.uid, this.owner.gid).catch(() => undefined);
      return { problem: 'missing', repaired: true };
    }
    if (!info.isDirectory()) return { problem: 'not_a_folder', repaired: false };
    // Only root can give a folder away; an unprivileged panel owns what it creates.
    if (process.getuid?.() !== 0 || (info.uid === this.owner.uid && info.gid === this.owner.gid)) return undefined;
    if (options.dryRun) return { problem: 'owner', repaired: false };
    await chown(home, this.owner.uid, this.owner.gid);
    return { problem: 'owner', repaired: true };
  }

  /**
   * Gives a tree the panel wrote (an installed application) to the web user, so the site can read
   * it and its FTP accounts can change it. Links are not followed (lchown). Without root the panel
   * cannot chown and the files stay the panel's, which is what an unprivileged install wants.
   */
  async giveToOwner(dir: string): Promise<void> {
    const { uid, gid } = this.owner;
    if (process.getuid?.() !== 0) return;
    const pending = [dir];
    while (pending.length > 0) {
      const current = pending.pop() as string;
      await chown(current, uid, gid);
      for (const entry of await readdir(current, { withFileTypes: true })) {
        const full = path.join(current, entry.name);
        if (entry.isDirectory()) pending.push(full);
        else await lchown(full, uid, gid);
      }
    }
  }
}
