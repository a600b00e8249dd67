import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isFilePath } from '@panel247/contract/files';
import { ConflictError, NotFoundError } from '../../errors.ts';

/**
 * Where a path given by a user lands under a root (a service home or an FTP account's folder),
 * checked on the disk: the text is a relative path of plain names (no `..`, nothing absolute),
 * and what exists of it resolves — through any symlink, one planted over FTP included — inside
 * the root. `parent` is the real folder the last name lives in; `entry` the path of the entry
 * itself (see `existing` for how links are treated).
 */
export interface RootedPath {
  root: string;
  /** The real folder holding the entry. */
  parent: string;
  /** The last name ('' for the root itself). */
  name: string;
  /** parent/name, not resolved further: use with l-functions, or after checking it is no link. */
  entry: string;
}

export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(`${root}${path.sep}`);
}

/** The real path of the root; it must exist and be a folder. */
export async function realRoot(root: string): Promise<string> {
  const real = await realpath(root).catch(() => undefined);
  if (!real || !(await lstat(real)).isDirectory()) throw new NotFoundError('files.error.not_found');
  return real;
}

/**
 * Resolves `relative` under `root`. The parent folder must exist and be inside the root once
 * resolved; the entry itself need not exist (a new folder or upload).
 */
export async function rooted(root: string, relative: string): Promise<RootedPath> {
  if (!isFilePath(relative)) throw new ConflictError('files.error.path');
  const realRootPath = await realRoot(root);
  if (relative === '') return { root: realRootPath, parent: realRootPath, name: '', entry: realRootPath };
  const names = relative.split('/');
  const name = names.pop() as string;
  const parent = await realpath(path.join(realRootPath, ...names)).catch(() => undefined);
  if (!parent) throw new NotFoundError('files.error.not_found');
  if (!isInside(realRootPath, parent)) throw new ConflictError('files.error.outside');
  if (!(await lstat(parent)).isDirectory()) throw new NotFoundError('files.error.not_found');
  return { root: realRootPath, parent, name, entry: path.join(parent, name) };
}

/**
 * The entry, which must exist. A link is either acted on as a link (`as_link`: rename, delete) or
 * followed (`follow`: list, read, write, download) — only when what it leads to, resolved to the
 * end, is inside the root; then `entry` is that real path.
 */
export async function existing(
  root: string,
  relative: string,
  options: { links: 'follow' | 'as_link' },
): Promise<RootedPath & { kind: 'folder' | 'file' | 'link' }> {
  const where = await rooted(root, relative);
  const info = await lstat(where.entry).catch(() => undefined);
  if (!info) throw new NotFoundError('files.error.not_found');
  if (!info.isSymbolicLink()) return { ...where, kind: info.isDirectory() ? 'folder' : 'file' };
  if (options.links === 'as_link') return { ...where, kind: 'link' };
  const real = await realpath(where.entry).catch(() => undefined);
  if (!real) throw new NotFoundError('files.error.not_found');
  if (!isInside(where.root, real)) throw new ConflictError('files.error.outside');
  const target = await lstat(real);
  return {
    ...where,
    parent: path.dirname(real),
    name: path.basename(real),
    entry: real,
    kind: target.isDirectory() ? 'folder' : 'file',
  };
}
