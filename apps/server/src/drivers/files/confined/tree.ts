import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir, readlink, unlink } from 'node:fs/promises';
import { ConflictError, NotFoundError } from '../../../errors.ts';

/**
 * A folder tree (a service home, or an FTP account's folder in it) walked one name at a time
 * from an open folder, never by a path the kernel resolves on its own.
 *
 * Node has no `openat`; `/proc/self/fd/N/name` is its equivalent: the kernel takes the folder
 * that descriptor N holds — whatever has been renamed or swapped since — and looks up only
 * `name` in it, and `O_NOFOLLOW` applies to that one name. So every step of a path is checked
 * as it is used: a customer who swaps a folder for a link between two of our calls makes the
 * next step fail, instead of sending it elsewhere. Links are resolved here, in user space, and
 * followed only while they stay inside the root; anything else answers "outside".
 *
 * This runs in the confined worker, as the service's user: what this code forgets, the kernel
 * refuses (other homes are 0750, the panel's data 0700).
 */

export const DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** Opening a FIFO or a device never blocks, and a link is never followed. */
export const READ_ONLY = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
export const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** How many links one lookup may pass through (the kernel's own limit is 40). */
const MAX_LINKS = 16;

/** The path of `name` inside the folder `dir` holds. */
export function at(dir: FileHandle, name: string): string {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0'))
    throw new Error(`not one name: ${JSON.stringify(name)}`);
  return `/proc/self/fd/${dir.fd}/${name}`;
}

/**
 * The folder `dir` holds, for readdir, lstat and reopening. The trailing `/.` makes the kernel
 * pass through the descriptor's magic link as a folder instead of treating it as the last name
 * (which O_NOFOLLOW would refuse and lstat would describe as a link).
 */
export function self(dir: FileHandle): string {
  return `/proc/self/fd/${dir.fd}/.`;
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** An entry found by `locate`: the open folder holding it and its name ('' for the root). */
export interface Located {
  parent: FileHandle;
  name: string;
  /** The entry's path from the root once links were resolved. */
  names: string[];
  /** The entry itself (a link is reported as a link unless it was followed); undefined: missing. */
  info: Stats | undefined;
}

export class Tree {
  private constructor(
    private readonly root: FileHandle,
    /** The root's absolute path: a link's absolute target is inside only when below it. */
    private readonly rootPath: string,
  ) {}

  /**
   * Opens `base`, a home the panel chose (its last name not followed if it is a link). The
   * worker does this before it drops to the service's user, so that the folders above the home
   * need not be open to that user; everything below is walked with the user's rights.
   */
  static openHome(base: string): Promise<FileHandle> {
    return open(base, DIRECTORY).catch((error: unknown) => {
      throw errorCode(error) === 'ENOENT' ? new NotFoundError('files.error.not_found') : error;
    });
  }

  /** The tree rooted at `folder` (names below the open home, an FTP account's folder), walked without links. */
  static async within(home: FileHandle, base: string, folder: string[]): Promise<Tree> {
    let current = home;
    for (const name of folder) {
      const next = await open(at(current, name), DIRECTORY).catch(() => undefined);
      await current.close();
      if (!next) throw new NotFoundError('files.error.not_found');
      current = next;
    }
    return new Tree(current, [base, ...folder].join('/'));
  }

  /** `openHome` and `within` at once, for a process that keeps its rights. */
  static async open(base: string, folder: string[]): Promise<Tree> {
    return Tree.within(await Tree.openHome(base), base, folder);
  }

  async close(): Promise<void> {
    await this.root.close();
  }

  /** A new handle on the root, closed by its caller like any other folder handle. */
  openRoot(): Promise<FileHandle> {
    return open(self(this.root), DIRECTORY);
  }

  /**
   * Opens the folder at `names`, following links that stay inside the root. Answers the handle
   * and the folder's real path from the root.
   */
  async folder(names: string[], links = { left: MAX_LINKS }): Promise<{ handle: FileHandle; names: string[] }> {
    let handle = await this.openRoot();
    const walked: string[] = [];
    for (let index = 0; index < names.length; index++) {
      const name = names[index] as string;
      try {
        const next = await open(at(handle, name), DIRECTORY);
        await handle.close();
        handle = next;
        walked.push(name);
        continue;
      } catch (error) {
        if (errorCode(error) === 'ENOENT') {
          await handle.close();
          throw new NotFoundError('files.error.not_found');
        }
        if (errorCode(error) !== 'ENOTDIR') {
          await handle.close();
          throw error;
        }
      }
      // Not a folder: a link (resolved, then walked again from the root) or a file.
      const info = await lstat(at(handle, name)).catch(() => undefined);
      if (!info?.isSymbolicLink()) {
        await handle.close();
        throw new NotFoundError('files.error.not_a_folder');
      }
      const target = await readlink(at(handle, name));
      await handle.close();
      return this.folder(this.resolveLink(walked, target, names.slice(index + 1), links), links);
    }
    return { handle, names: walked };
  }

  /**
   * The entry at `names`: its folder is walked as `folder` does; the entry itself, when it is a
   * link, is followed (`follow`) only while it stays inside, or reported as a link.
   */
  async locate(names: string[], follow: boolean, links = { left: MAX_LINKS }): Promise<Located> {
    if (names.length === 0) {
      return { parent: await this.openRoot(), name: '', names: [], info: await lstat(self(this.root)) };
    }
    const { handle: parent, names: walked } = await this.folder(names.slice(0, -1), links);
    const name = names[names.length - 1] as string;
    const info = await lstat(at(parent, name)).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    });
    if (!info?.isSymbolicLink() || !follow) return { parent, name, names: [...walked, name], info };
    const target = await readlink(at(parent, name));
    await parent.close();
    return this.locate(this.resolveLink(walked, target, [], links), follow, links);
  }

  /**
   * Creates the folders of `names` that are missing (0755), never following a link: a link or
   * file in the way is refused ("outside"), or, where `replace` (a restore putting a tree back),
   * removed and made a folder again.
   */
  async makeFolders(names: string[], replace = false): Promise<FileHandle> {
    let handle = await this.openRoot();
    for (const name of names) {
      await mkdir(at(handle, name), { mode: 0o755 }).catch((error: unknown) => {
        if (errorCode(error) !== 'EEXIST') throw error;
      });
      let next = await open(at(handle, name), DIRECTORY).catch(() => undefined);
      if (!next && replace) {
        await unlink(at(handle, name)).catch(() => undefined);
        await mkdir(at(handle, name), { mode: 0o755 }).catch(() => undefined);
        next = await open(at(handle, name), DIRECTORY).catch(() => undefined);
      }
      await handle.close();
      if (!next) throw new ConflictError('files.error.outside');
      handle = next;
    }
    return handle;
  }

  /**
   * Where a link at `walked` pointing at `target` leads, followed by `rest`, as names from the
   * root — or "outside" when it leaves the root or passes through too many links.
   */
  private resolveLink(walked: string[], target: string, rest: string[], links: { left: number }): string[] {
    links.left -= 1;
    if (links.left < 0) throw new ConflictError('files.error.outside');
    let base: string[];
    let relative: string;
    if (target.startsWith('/')) {
      if (target !== this.rootPath && !target.startsWith(`${this.rootPath}/`))
        throw new ConflictError('files.error.outside');
      base = [];
      relative = target.slice(this.rootPath.length);
    } else {
      base = [...walked];
      relative = target;
    }
    for (const part of relative.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (base.length === 0) throw new ConflictError('files.error.outside');
        base.pop();
      } else base.push(part);
    }
    return [...base, ...rest];
  }
}

/** Open folder handles are closed whatever happens in `work`. */
export async function withFolder<T>(handle: FileHandle, work: (handle: FileHandle) => Promise<T>): Promise<T> {
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

/** The names of a folder (by handle), sorted. */
export async function namesIn(dir: FileHandle): Promise<string[]> {
  return (await readdir(self(dir))).sort();
}
