import { chown, type FileHandle, lstat, mkdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { isServiceFolder } from '@panel247/contract/hosting-rules';
import { ConflictError, FieldErrors, NotFoundError } from '../../errors.ts';
import { errorCode, Tree } from '../files/confined/tree.ts';
import type { SyncOptions } from '../sync-options.ts';

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

/** Homes being made now, by path (see ServiceHomes.ensureHome). */
const making = new Map<string, Promise<void>>();

/**
 * Work below a service home that must run with the service's rights (a confined worker, see
 * drivers/files/confined): making folders, measuring the home. The panel supplies it with the
 * owner of each home (modules/files/home-work.ts).
 */
export interface HomeWork {
  /** False for a home on another server (or an instance apart from it): its agent makes a missing home itself. */
  holdsHome(domain: string): Promise<boolean>;
  /** Makes `relative` and the folders above it, never following a link (ConflictError otherwise). */
  makeFolders(domain: string, home: string, relative: string): Promise<void>;
  /** Bytes the home holds, every entry counted. */
  usage(domain: string, home: string): Promise<number>;
}

/**
 * Every hosting service has a home folder, <root>/<domain>. Folders given by users (FTP accounts,
 * sites) are relative to it: absolute paths, "..", control and shell characters are refused, and
 * what is below the home is made by its worker, so a link planted anywhere on the way is refused
 * by a walk that never follows one.
 */
export class ServiceHomes {
  constructor(
    private readonly root: string,
    private readonly owner: { uid: number; gid: number },
    /** Without it (the CLI's reports, the sync), nothing below a home can be made or measured. */
    private readonly work?: HomeWork,
  ) {}

  /** The same homes, with another owner for what the panel makes and repairs itself. */
  withOwner(owner: { uid: number; gid: number }): ServiceHomes {
    return new ServiceHomes(this.root, owner, this.work);
  }

  home(domain: string): string {
    return path.join(path.resolve(this.root), domain);
  }

  /**
   * The home itself removed once it is empty (a terminated service's, emptied by its own user):
   * its parent is the panel's, so no link can stand in for it; written into meanwhile, it is not
   * empty and this fails (the caller empties it again). Nothing when it is gone already.
   */
  async removeEmpty(domain: string): Promise<void> {
    await rmdir(this.home(domain)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  /**
   * Bytes the service's home holds, every entry counted by its worker; none yet: 0. Only the
   * worker looks (on the service's server: the home may not be on this machine at all).
   */
  async usage(domain: string): Promise<number> {
    if (!this.work) throw new Error('a service home is measured by its worker');
    return this.work.usage(domain, this.home(domain)).catch((error: unknown) => {
      if (error instanceof NotFoundError) return 0;
      throw error;
    });
  }

  /**
   * The absolute folder, made if missing: the home itself in the hosting root (the panel's, where
   * no customer writes), and below it by the service's worker. A link in the way is a field error.
   */
  async prepare(domain: string, relative: string, field: string): Promise<string> {
    const home = this.home(domain);
    await this.ensureHome(home);
    if (relative === '') return home;
    if (!this.work) throw new Error('folders below a service home are made by its worker');
    await this.work.makeFolders(domain, home, relative).catch((error: unknown) => {
      // A link or a file where a folder must be; the kernel's refusals stay what they are.
      if (
        (error instanceof ConflictError && error.messageKey === 'files.error.outside') ||
        error instanceof NotFoundError
      )
        throw FieldErrors.one(field, 'hosting.error.folder_escape');
      throw error;
    });
    return path.join(home, relative);
  }

  /**
   * Makes a missing home and gives it its owner. Calls that come together in this process wait
   * for the one making it, so none finds it there but still the panel's. The hosting root is the
   * operator's: made as is when missing.
   */
  private async ensureHome(home: string): Promise<void> {
    if (this.work && !(await this.work.holdsHome(path.basename(home)))) return;
    const pending = making.get(home);
    if (pending) return pending;
    const made = (async () => {
      if (
        await lstat(home).then(
          () => true,
          () => false,
        )
      )
        return;
      await mkdir(path.dirname(home), { recursive: true });
      const created = await mkdir(home).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
          return false;
        },
      );
      if (created) await chown(home, this.owner.uid, this.owner.gid).catch(() => undefined);
    })().finally(() => making.delete(home));
    making.set(home, made);
    return made;
  }

  /**
   * Checks an account's home folder (absolute, as stored) and puts it right where that is safe: a
   * missing folder is made (by the service's worker) and a foreign-owned one given back to the
   * hosting user (the folder itself, through the descriptor a link-free walk opened; what is
   * inside stays as it is). A file or link in its place, or a path outside the root, is only
   * reported; a dry run changes nothing. Answers nothing when the folder is as it should be.
   */
  async repair(
    home: string,
    options: SyncOptions,
  ): Promise<{ problem: 'missing' | 'not_a_folder' | 'owner' | 'outside_root'; repaired: boolean } | undefined> {
    const root = path.resolve(this.root);
    if (!path.resolve(home).startsWith(`${root}${path.sep}`)) return { problem: 'outside_root', repaired: false };
    const [domain, ...below] = path.relative(root, path.resolve(home)).split(path.sep) as [string, ...string[]];
    const found = await this.openFolder(domain, below);
    if (found === 'missing') {
      if (options.dryRun) return { problem: 'missing', repaired: false };
      await this.prepare(domain, below.join('/'), 'home');
      return { problem: 'missing', repaired: true };
    }
    if (found === 'not_a_folder') return { problem: 'not_a_folder', repaired: false };
    try {
      const info = await found.stat();
      // The home itself keeps its group (the web server's, with service users: users sync sees to
      // it); a folder below it is its user's and group's.
      const gid = below.length === 0 ? -1 : this.owner.gid;
      // Only root can give a folder away; an unprivileged panel owns what it creates.
      if (process.getuid?.() !== 0 || (info.uid === this.owner.uid && (gid === -1 || info.gid === gid)))
        return undefined;
      if (options.dryRun) return { problem: 'owner', repaired: false };
      await found.chown(this.owner.uid, gid);
      return { problem: 'owner', repaired: true };
    } finally {
      await found.close();
    }
  }

  /** A folder of a home, opened by a walk that follows no link out of it (the home's own name included). */
  private async openFolder(domain: string, below: string[]): Promise<FileHandle | 'missing' | 'not_a_folder'> {
    const tree = await Tree.open(this.home(domain), []).catch((error: unknown) => {
      if (error instanceof NotFoundError) return 'missing' as const;
      if (errorCode(error) === 'ENOTDIR' || errorCode(error) === 'ELOOP') return 'not_a_folder' as const;
      throw error;
    });
    if (typeof tree === 'string') return tree;
    try {
      return (await tree.folder(below)).handle;
    } catch (error) {
      if (error instanceof NotFoundError && error.messageKey === 'files.error.not_found') return 'missing';
      if (error instanceof NotFoundError || error instanceof ConflictError) return 'not_a_folder';
      throw error;
    } finally {
      await tree.close();
    }
  }
}
