import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink, rename, rmdir, symlink, unlink } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EXTRACTABLE_PATTERN, FILE_EDIT_MAX_BYTES } from '@panel247/contract/file-rules';
import type { FileEntry } from '@panel247/contract/files';
import { pack } from 'tar-stream';
import { ZipFile } from 'yazl';
import { ConflictError, FieldErrors, NotFoundError, QuotaError } from '../../../errors.ts';
import {
  ArchiveError,
  type Entry,
  KEPT_PAX_KEY,
  tarEntries,
  type UnpackSink,
  unpackEntries,
  zipEntries,
} from '../../archives/archive.ts';
import { handleRange } from '../../archives/handle-range.ts';
import {
  at,
  CREATE_NEW,
  DIRECTORY,
  errorCode,
  type Located,
  namesIn,
  READ_ONLY,
  type Tree,
  withFolder,
} from './tree.ts';

/**
 * What the confined worker does in a tree, one operation per process. Paths arrive as names
 * (checked by the contract's rules in the panel, split here), every entry is reached through
 * `Tree`, and files are opened without following links and without blocking on FIFOs.
 */

/** The streams of one operation: bytes in (uploads, restores) and out (downloads, zips). */
export interface OperationIo {
  input: Readable;
  output: Writable;
  /** Sends what the panel needs before the bytes (a download's name and size). */
  announce(meta: Record<string, unknown>): void;
}

/** Extensions never offered to the text editor (the read still checks the bytes). */
const BINARY_EXTENSIONS = new Set(
  'png jpg jpeg gif webp ico bmp tif tiff svgz avif zip gz tgz tar bz2 xz 7z rar pdf mp3 mp4 m4a ogg wav webm mov avi woff woff2 ttf otf eot exe dll so bin jar class phar sqlite db'.split(
    ' ',
  ),
);

function editableName(name: string, size: number): boolean {
  const extension = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
  return size <= FILE_EDIT_MAX_BYTES && !BINARY_EXTENSIONS.has(extension);
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

function typeOf(info: Stats): FileEntry['type'] {
  if (info.isSymbolicLink()) return 'link';
  if (info.isDirectory()) return 'folder';
  if (info.isFile()) return 'file';
  return 'special';
}

export function namesOf(path: string): string[] {
  return path === '' ? [] : path.split('/');
}

/** A hidden name beside the final one, for writing aside and renaming over. */
function asideName(name: string): string {
  return `.${name.slice(0, 200)}.p247-${randomBytes(6).toString('hex')}`;
}

/**
 * The first `size` bytes of an open file, closing it at the end: what was measured is what is
 * read, whether the file grows or shrinks meanwhile.
 */
function sizedStream(handle: FileHandle, size: number): Readable {
  const bytes = handleRange(handle, 0, size);
  bytes.once('close', () => void handle.close().catch(() => undefined));
  return bytes;
}

/** Writes a file aside in `dir`, then renames it over `name` (a link there is replaced, not followed). */
async function replaceFile(dir: FileHandle, name: string, content: AsyncIterable<Buffer>, mode: number, mtime?: Date) {
  const temp = asideName(name);
  try {
    const file = await open(at(dir, temp), CREATE_NEW, mode);
    try {
      await writeAll(file, content);
      await file.chmod(mode);
      if (mtime) await file.utimes(mtime, mtime);
    } finally {
      await file.close();
    }
    await rename(at(dir, temp), at(dir, name));
  } catch (error) {
    await unlink(at(dir, temp)).catch(() => undefined);
    throw error;
  }
}

/** Writes a stream into an open file its caller closes (see handle-range.ts for why by hand). */
async function writeAll(target: FileHandle, content: AsyncIterable<Buffer>): Promise<number> {
  let written = 0;
  for await (const chunk of content) {
    await target.write(chunk);
    written += chunk.length;
  }
  return written;
}

async function exists(parent: FileHandle, name: string): Promise<boolean> {
  return lstat(at(parent, name)).then(
    () => true,
    () => false,
  );
}

/** The entry, which must exist; the root itself is refused where `notRoot`. */
async function existing(
  tree: Tree,
  path: string,
  follow: boolean,
  notRoot = false,
): Promise<Located & { info: Stats }> {
  const where = await tree.locate(namesOf(path), follow);
  if (!where.info) {
    await where.parent.close();
    throw new NotFoundError('files.error.not_found');
  }
  if (notRoot && where.name === '') {
    await where.parent.close();
    throw new ConflictError('files.error.root');
  }
  return where as Located & { info: Stats };
}

/** Opens a regular file for reading, or refuses (a FIFO, a device, a folder, a link). */
async function openFile(parent: FileHandle, name: string): Promise<{ handle: FileHandle; info: Stats }> {
  const handle = await open(at(parent, name), READ_ONLY).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') throw new NotFoundError('files.error.not_found');
    if (errorCode(error) === 'ELOOP') throw new ConflictError('files.error.outside');
    throw error;
  });
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new NotFoundError('files.error.not_a_file');
  }
  return { handle, info };
}

export async function list(tree: Tree, args: { path: string }): Promise<FileEntry[]> {
  const { handle } = await tree.folder(namesOf(args.path));
  return withFolder(handle, async (dir) => {
    const entries: FileEntry[] = [];
    for (const name of await namesIn(dir)) {
      const info = await lstat(at(dir, name)).catch(() => undefined);
      if (!info) continue;
      const type = typeOf(info);
      entries.push({
        name,
        type,
        size: type === 'file' ? info.size : 0,
        modified: Math.floor(info.mtimeMs / 1000),
        mode: octal(info.mode),
        editable: type === 'file' && editableName(name, info.size),
        extractable: type === 'file' && EXTRACTABLE_PATTERN.test(name),
      });
    }
    const order = { folder: 0, link: 1, file: 1, special: 1 } as const;
    return entries.sort((a, b) => order[a.type] - order[b.type] || a.name.localeCompare(b.name));
  });
}

export async function createFolder(tree: Tree, args: { folder: string; name: string }): Promise<void> {
  const { handle } = await tree.folder(namesOf(args.folder));
  await withFolder(handle, async (dir) => {
    await mkdir(at(dir, args.name), { mode: 0o755 }).catch((error: unknown) => {
      if (errorCode(error) === 'EEXIST') throw FieldErrors.one('name', 'files.error.exists');
      throw error;
    });
  });
}

/** Renames an entry within its folder (a link is renamed as a link). */
export async function renameEntry(tree: Tree, args: { path: string; name: string }): Promise<void> {
  const where = await existing(tree, args.path, false, true);
  await withFolder(where.parent, async (dir) => {
    if (await exists(dir, args.name)) throw FieldErrors.one('name', 'files.error.exists');
    await rename(at(dir, where.name), at(dir, args.name));
  });
}

/** Removes everything below an open folder, then the folder: links are removed, never followed. */
async function removeTree(parent: FileHandle, name: string): Promise<void> {
  const folder = await open(at(parent, name), DIRECTORY).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return null;
    if (errorCode(error) === 'ENOTDIR') return undefined;
    throw error;
  });
  if (folder === null) return;
  if (!folder) {
    // Not a folder: a file, link or special file goes as it is (a folder swapped in meanwhile
    // makes unlink fail, and the delete with it).
    await unlink(at(parent, name)).catch((error: unknown) => {
      if (errorCode(error) !== 'ENOENT') throw error;
    });
    return;
  }
  await withFolder(folder, async (dir) => {
    for (const child of await namesIn(dir)) {
      const info = await lstat(at(dir, child)).catch(() => undefined);
      if (!info) continue;
      if (info.isDirectory()) await removeTree(dir, child);
      else
        await unlink(at(dir, child)).catch((error: unknown) => {
          if (errorCode(error) !== 'ENOENT') throw error;
        });
    }
  });
  await rmdir(at(parent, name)).catch((error: unknown) => {
    if (errorCode(error) !== 'ENOENT') throw error;
  });
}

/** Deletes a file, a link (not what it points to) or a folder with everything inside. */
export async function remove(tree: Tree, args: { path: string }): Promise<void> {
  const where = await existing(tree, args.path, false, true);
  await withFolder(where.parent, (dir) => removeTree(dir, where.name));
}

/** Copies what is below an open folder, counting bytes against `budget` (links copied as links). */
async function copyEntry(
  fromParent: FileHandle,
  name: string,
  toParent: FileHandle,
  toName: string,
  budget: { left: number },
): Promise<void> {
  const info = await lstat(at(fromParent, name)).catch(() => undefined);
  if (!info) return;
  if (info.isSymbolicLink()) {
    await symlink(await readlink(at(fromParent, name)), at(toParent, toName));
  } else if (info.isDirectory()) {
    await mkdir(at(toParent, toName), { mode: info.mode & 0o777 });
    const from = await open(at(fromParent, name), DIRECTORY).catch(() => undefined);
    if (!from) return;
    await withFolder(from, async (source) => {
      const to = await open(at(toParent, toName), DIRECTORY);
      await withFolder(to, async (target) => {
        for (const child of await namesIn(source)) await copyEntry(source, child, target, child, budget);
      });
    });
  } else if (info.isFile()) {
    const { handle: source, info: opened } = await openFile(fromParent, name).catch(() => ({
      handle: undefined,
      info: undefined,
    }));
    if (!source || !opened) return;
    try {
      budget.left -= opened.size;
      if (budget.left < 0) throw new QuotaError('files.error.quota');
      const target = await open(at(toParent, toName), CREATE_NEW, opened.mode & 0o777);
      try {
        // Never more than the size measured: a file growing meanwhile is copied as it was.
        await writeAll(target, handleRange(source, 0, opened.size));
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  }
  // Special files (FIFOs, sockets, devices) are not copied.
}

/**
 * Copies (links as links, nothing followed) or moves the entry into the folder `to`, under the
 * same name; a name taken there is refused, and a folder cannot go into itself. A copy is
 * counted against `room` bytes and removed whole when it does not fit.
 */
export async function copyOrMove(
  tree: Tree,
  args: { path: string; to: string; how: 'copy' | 'move'; room?: number },
): Promise<void> {
  const from = await existing(tree, args.path, false, true);
  await withFolder(from.parent, async (fromParent) => {
    const folder = await tree.folder(namesOf(args.to)).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw FieldErrors.one('to', 'files.error.not_a_folder');
      throw error;
    });
    await withFolder(folder.handle, async (target) => {
      const into = folder.names.join('/');
      const source = from.names.join('/');
      if (into === source || into.startsWith(`${source}/`)) throw FieldErrors.one('to', 'files.error.into_itself');
      if (await exists(target, from.name)) throw FieldErrors.one('to', 'files.error.exists');
      if (args.how === 'move') {
        await rename(at(fromParent, from.name), at(target, from.name));
        return;
      }
      try {
        await copyEntry(fromParent, from.name, target, from.name, { left: args.room ?? Number.POSITIVE_INFINITY });
      } catch (error) {
        await removeTree(target, from.name).catch(() => undefined);
        throw error;
      }
    });
  });
}

/** Sets the permission bits of a file or folder (links followed while inside). */
export async function setMode(tree: Tree, args: { path: string; mode: number }): Promise<void> {
  const where = await existing(tree, args.path, true);
  await withFolder(where.parent, async (dir) => {
    if (!where.info.isFile() && !where.info.isDirectory()) throw new ConflictError('files.error.not_a_file');
    const target = where.name === '' ? await tree.openRoot() : await open(at(dir, where.name), READ_ONLY);
    try {
      const info = await target.stat();
      if (!info.isFile() && !info.isDirectory()) throw new ConflictError('files.error.not_a_file');
      await target.chmod(args.mode & 0o777);
    } finally {
      await target.close();
    }
  });
}

export async function read(tree: Tree, args: { path: string }): Promise<{ content: string }> {
  const where = await existing(tree, args.path, true);
  const { handle } = await withFolder(where.parent, (dir) => openFile(dir, where.name));
  try {
    const info = await handle.stat();
    if (info.size > FILE_EDIT_MAX_BYTES) throw new ConflictError('files.error.too_large_to_edit');
    const bytes = Buffer.alloc(info.size);
    const { bytesRead } = await handle.read(bytes, 0, info.size, 0);
    const text = bytes.subarray(0, bytesRead);
    try {
      if (text.includes(0)) throw new Error('binary');
      return { content: new TextDecoder('utf-8', { fatal: true }).decode(text) };
    } catch {
      throw new ConflictError('files.error.not_text');
    }
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file whole from `content`: aside first (created new, never through a link), then
 * renamed over the old one, so a reader (a site) never sees half of it. An existing file keeps
 * its permission bits. At most `size` bytes are taken, and exactly `size` when it is given.
 */
async function writeWhole(
  tree: Tree,
  path: string,
  content: Readable,
  size: number | undefined,
  field: string,
): Promise<void> {
  const exists =
    (await tree.locate(namesOf(path), false).then(async (where) => {
      await where.parent.close();
      return where.info;
    })) !== undefined;
  // An existing file is written where it really is (through a link that stays inside the root).
  const where = await tree.locate(namesOf(path), exists);
  await withFolder(where.parent, async (dir) => {
    if (where.name === '') throw new ConflictError('files.error.root');
    if (where.info && !where.info.isFile()) throw FieldErrors.one(field, 'files.error.exists');
    const temp = asideName(where.name);
    try {
      const handle = await open(at(dir, temp), CREATE_NEW, 0o644);
      try {
        let written = 0;
        for await (const chunk of content as AsyncIterable<Buffer>) {
          written += chunk.length;
          if (size !== undefined && written > size) throw new ConflictError('files.error.upload_size');
          await handle.write(chunk);
        }
        if (size !== undefined && written !== size) throw new ConflictError('files.error.upload_size');
        if (where.info) await handle.chmod(where.info.mode & 0o7777);
      } finally {
        await handle.close();
      }
      await rename(at(dir, temp), at(dir, where.name));
    } catch (error) {
      await unlink(at(dir, temp)).catch(() => undefined);
      throw error;
    }
  });
}

export async function save(tree: Tree, args: { path: string; content: string }): Promise<void> {
  await writeWhole(tree, args.path, Readable.from([Buffer.from(args.content, 'utf8')]), undefined, 'path');
}

/** Before an upload takes a byte: its folder is there, and its name is free or a plain file. */
export async function vacant(tree: Tree, args: { path: string }): Promise<void> {
  const where = await tree.locate(namesOf(args.path), false);
  await where.parent.close();
  if (where.name === '' || (where.info && !where.info.isFile())) throw FieldErrors.one('name', 'files.error.exists');
}

/** The last step of an upload: its `size` bytes, from the panel's staging, into place. */
export async function write(tree: Tree, args: { path: string; size: number }, io: OperationIo): Promise<void> {
  await writeWhole(tree, args.path, io.input, args.size, 'name');
}

/** A file's bytes, for a download: its name and size are announced, then the bytes follow. */
export async function download(tree: Tree, args: { path: string }, io: OperationIo): Promise<void> {
  const where = await existing(tree, args.path, true);
  const { handle, info } = await withFolder(where.parent, (dir) => openFile(dir, where.name));
  try {
    io.announce({ name: where.name, size: info.size });
  } catch (error) {
    await handle.close();
    throw error;
  }
  await pipeline(sizedStream(handle, info.size), io.output);
}

/**
 * A folder (or one file) as a .zip, streamed as it is written: files and folders only, links
 * left out (never followed), special files and what cannot be read skipped. Each file is opened
 * when the zip reaches it, walked again from the root, and read to the size it had then.
 */
export async function zip(tree: Tree, args: { path: string }, io: OperationIo): Promise<void> {
  const top = await existing(tree, args.path, true);
  await top.parent.close();
  const label = top.name === '' ? 'files' : top.name;
  io.announce({ name: `${label}.zip` });
  const archive = new ZipFile();
  const failed = new Promise<never>((_, reject) => {
    archive.on('error', reject);
    (archive.outputStream as Readable).on('error', reject);
  });
  const sent = pipeline(archive.outputStream as Readable, io.output);
  const add = async (names: string[], inZip: string): Promise<void> => {
    const where = await tree.locate(names, false).catch(() => undefined);
    if (!where) return;
    const { info } = where;
    await where.parent.close();
    if (!info) return;
    if (info.isDirectory()) {
      archive.addEmptyDirectory(inZip, { mtime: info.mtime, mode: info.mode });
      const { handle } = await tree.folder(names).catch(() => ({ handle: undefined }));
      if (!handle) return;
      const children = await withFolder(handle, namesIn);
      for (const name of children) await add([...names, name], `${inZip}/${name}`);
    } else if (info.isFile()) {
      archive.addReadStreamLazy(inZip, { mtime: info.mtime, mode: info.mode }, (done) => {
        tree
          .locate(names, false)
          .then((found) => withFolder(found.parent, (dir) => openFile(dir, found.name)))
          .then(
            ({ handle, info: opened }) => done(null, sizedStream(handle, opened.size)),
            // Gone or swapped since it was listed: an empty entry, the zip goes on.
            () => done(null, Readable.from([])),
          );
      });
    }
  };
  await Promise.race([add(top.names, label).then(() => archive.end()), failed]);
  await Promise.race([sent, failed]);
}

/** What the sink of an extraction writes: below one new folder, each step walked without links. */
function treeSink(tree: Tree, base: string[]): UnpackSink {
  return {
    folder: async (names) => {
      const handle = await tree.makeFolders([...base, ...names]);
      await handle.close();
    },
    file: async (names, content) => {
      const { handle: dir } = await tree.folder([...base, ...names.slice(0, -1)]);
      await withFolder(dir, async (folder) => {
        const file = await open(at(folder, names[names.length - 1] as string), CREATE_NEW, 0o644);
        try {
          await writeAll(file, content);
        } finally {
          await file.close();
        }
      });
    },
  };
}

/**
 * Unpacks an archive (.zip, .tar.gz) into a new folder beside it, named after it (`site.zip` →
 * `site`, then `site (2)`…), at most `room` bytes unpacked; on any refusal the new folder goes.
 * Answers the new folder's path relative to the root.
 */
export async function extract(tree: Tree, args: { path: string; room: number }): Promise<{ path: string }> {
  const archive = await existing(tree, args.path, true);
  const { handle, info } = await withFolder(archive.parent, async (dir) => {
    if (!EXTRACTABLE_PATTERN.test(archive.name)) throw new ConflictError('files.error.not_an_archive');
    return openFile(dir, archive.name);
  });
  const folderNames = archive.names.slice(0, -1);
  try {
    const base = archive.name.replace(EXTRACTABLE_PATTERN, '') || 'archive';
    const { handle: parent } = await tree.folder(folderNames);
    const name = await withFolder(parent, async (dir) => {
      let candidate = base;
      for (let n = 2; ; n++) {
        const made = await mkdir(at(dir, candidate), { mode: 0o755 }).then(
          () => true,
          (error: unknown) => {
            if (errorCode(error) === 'EEXIST') return false;
            throw error;
          },
        );
        if (made) return candidate;
        candidate = `${base} (${n})`;
      }
    });
    const target = [...folderNames, name];
    try {
      const entries: AsyncIterable<Entry> = /\.zip$/i.test(archive.name)
        ? zipEntries(handle)
        : tarEntries(handleRange(handle, 0, info.size));
      await unpackEntries(entries, treeSink(tree, target), args.room);
    } catch (error) {
      const { handle: dir } = await tree.folder(folderNames);
      await withFolder(dir, (folder) => removeTree(folder, name)).catch(() => undefined);
      if (error instanceof ArchiveError) throw new ConflictError('files.error.archive', { reason: error.message });
      throw error;
    }
    return { path: target.join('/') };
  } finally {
    await handle.close();
  }
}

/**
 * The bytes a tree holds, like `du -sb`: links counted as links and never followed, every entry
 * counted (no cap: a quota must not be measured short).
 */
export async function usage(tree: Tree): Promise<{ bytes: number }> {
  const root = await tree.openRoot();
  let bytes = 0;
  const walk = async (dir: FileHandle): Promise<void> => {
    bytes += (await dir.stat()).size;
    for (const name of await namesIn(dir).catch(() => [] as string[])) {
      const info = await lstat(at(dir, name)).catch(() => undefined);
      if (!info) continue;
      if (!info.isDirectory()) {
        bytes += info.size;
        continue;
      }
      const child = await open(at(dir, name), DIRECTORY).catch(() => undefined);
      if (child) await withFolder(child, walk);
    }
  };
  await withFolder(root, walk);
  return { bytes };
}

/**
 * Puts a tree back from a restore (a plain tar on the input, made by packFolder): folders made,
 * files written aside and renamed over what is there, links recreated as links; what the tar
 * does not hold is kept. Whatever stands in the way now — a link planted since the backup
 * above all — is replaced, never followed. `top` says whether the tar is one file or a folder.
 */
export async function restore(
  tree: Tree,
  args: { path: string; top: 'file' | 'folder'; mirror?: boolean },
  io: OperationIo,
): Promise<void> {
  const base = namesOf(args.path);
  if (args.top === 'folder') await (await tree.makeFolders(base, true)).close();
  // with `mirror`, what the tar does not hold goes afterwards (a move's final copy)
  const held = new Set<string>();
  for await (const entry of tarEntries(io.input, false, true)) {
    const relative = entry.name === '' ? [] : entry.name.split('/');
    if (args.mirror) held.add(relative.join('/'));
    // unchanged since the first copy, which brought it: it stays as it is here
    if (entry.kept) continue;
    const names = args.top === 'file' ? base : [...base, ...relative];
    if (entry.kind === 'directory') {
      await (await tree.makeFolders(names, true)).close();
      continue;
    }
    const name = names[names.length - 1];
    if (name === undefined) throw new ConflictError('files.error.root');
    const folder = await tree.makeFolders(names.slice(0, -1), true);
    await withFolder(folder, async (dir) => {
      const present = await lstat(at(dir, name)).catch(() => undefined);
      if (entry.kind === 'symlink') {
        // A folder made since keeps its place (what is unread is skipped by tarEntries).
        if (present?.isDirectory()) return;
        if (present) await unlink(at(dir, name));
        await symlink(entry.linkname ?? '', at(dir, name));
        return;
      }
      if (present?.isDirectory()) await removeTree(dir, name);
      await replaceFile(dir, name, entry.open(), entry.mode & 0o777, entry.mtime);
    });
  }
  if (args.mirror && args.top === 'folder') {
    const { handle } = await tree.folder(base);
    await withFolder(handle, (dir) => removeUnheld(dir, '', held));
  }
}

/** Removes below `dir` every entry whose path (from the restore's folder) the tar did not hold. */
async function removeUnheld(dir: FileHandle, prefix: string, held: ReadonlySet<string>): Promise<void> {
  for (const name of await namesIn(dir)) {
    const relative = prefix === '' ? name : `${prefix}/${name}`;
    if (!held.has(relative)) {
      await removeTree(dir, name);
      continue;
    }
    const info = await lstat(at(dir, name)).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    const child = await open(at(dir, name), DIRECTORY).catch(() => undefined);
    if (child) await withFolder(child, (inner) => removeUnheld(inner, relative, held));
  }
}

/** How far behind the clock a file's times may be stamped (the kernel's coarse clock ticks in milliseconds). */
const FILE_TIME_MARGIN_MS = 2000;

/**
 * The whole tree as a plain tar, for a move to another server (read back there by `restore`):
 * folders, files and links as links (never followed), each with its mode and time; special files
 * left out. Each file is opened when the tar reaches it and read to the size it had then; one
 * gone or swapped meanwhile is left out (the move's final copy, made with the service frozen,
 * brings it).
 *
 * It announces `resendSince`: this server's clock before the walk began, less a margin for the
 * kernel's coarse file times (a write just after may be stamped a tick before). Given as `since`
 * to a later tar (the final copy), a file whose status and content have not changed since then
 * (ctime and mtime before it: the kernel sets ctime on every write, rename, chmod or link, and
 * nobody can set it back) goes as a `kept` entry, its name without its bytes; the rest goes whole.
 * Both times are this server's, so no clock is compared with another machine's.
 */
export async function tarTree(tree: Tree, args: { since?: number }, io: OperationIo): Promise<void> {
  io.announce({ name: 'home.tar', resendSince: Date.now() - FILE_TIME_MARGIN_MS });
  const since = typeof args.since === 'number' && Number.isFinite(args.since) ? args.since : undefined;
  const archive = pack();
  const sent = pipeline(archive as unknown as Readable, io.output);
  const walk = async (dir: FileHandle, prefix: string): Promise<void> => {
    for (const name of await namesIn(dir).catch(() => [] as string[])) {
      const relative = prefix === '' ? name : `${prefix}/${name}`;
      const info = await lstat(at(dir, name)).catch(() => undefined);
      if (!info) continue;
      const header = { name: relative, mode: info.mode & 0o7777, mtime: info.mtime };
      if (info.isSymbolicLink()) {
        const target = await readlink(at(dir, name)).catch(() => undefined);
        if (target !== undefined) archive.entry({ ...header, type: 'symlink', linkname: target });
      } else if (info.isDirectory()) {
        archive.entry({ ...header, name: `${relative}/`, type: 'directory' });
        const child = await open(at(dir, name), DIRECTORY).catch(() => undefined);
        if (child) await withFolder(child, (inner) => walk(inner, relative));
      } else if (info.isFile()) {
        if (since !== undefined && info.ctimeMs < since && info.mtimeMs < since) {
          archive.entry({ ...header, type: 'file', size: 0, pax: { [KEPT_PAX_KEY]: '1' } }, Buffer.alloc(0));
          continue;
        }
        const opened = await openFile(dir, name).catch(() => undefined);
        if (!opened) continue;
        const entry = archive.entry({ ...header, type: 'file', size: opened.info.size });
        await pipeline(sizedStream(opened.handle, opened.info.size), entry);
      }
    }
  };
  const root = await tree.openRoot();
  await withFolder(root, (dir) => walk(dir, ''));
  archive.finalize();
  await sent;
}

/**
 * Where an application may go: the folders above it are made (no link followed), and the
 * folder itself is missing or empty.
 */
export async function installTarget(tree: Tree, args: { path: string }): Promise<void> {
  const names = namesOf(args.path);
  const parent = await tree.makeFolders(names.slice(0, -1)).catch((error: unknown) => {
    if (error instanceof ConflictError) throw FieldErrors.one('subpath', 'hosting.error.folder_escape');
    throw error;
  });
  await withFolder(parent, async (dir) => {
    const name = names[names.length - 1];
    const folder =
      name === undefined
        ? await tree.openRoot()
        : await open(at(dir, name), DIRECTORY).catch((error: unknown) => {
            if (errorCode(error) === 'ENOENT') return null;
            if (errorCode(error) === 'ENOTDIR') return undefined;
            throw error;
          });
    if (folder === null) return;
    // A file or a link in its place is as taken as a folder with files.
    const empty = folder ? await withFolder(folder, async (found) => (await namesIn(found)).length === 0) : false;
    if (!empty) throw FieldErrors.one('subpath', 'installer.error.not_empty');
  });
}

/**
 * Installs an application at `path`: its payload (a plain tar on the input, checked entry by
 * entry as an extraction is) and its rendered config files (0640: they hold the database
 * password) go into a hidden folder beside the target, renamed into place at the end, so a
 * failure leaves nothing half-installed. At the root itself, which cannot be renamed, they go in
 * directly and a failure empties it again.
 */
export async function install(
  tree: Tree,
  args: { path: string; configs: { path: string; text: string }[]; maxBytes: number },
  io: OperationIo,
): Promise<void> {
  const names = namesOf(args.path);
  const parentNames = names.slice(0, -1);
  const atRoot = names.length === 0;
  const staging = atRoot ? [] : [...parentNames, `.panel247-install-${randomBytes(6).toString('hex')}`];
  if (!atRoot) await (await tree.makeFolders(staging)).close();
  const clear = async () => {
    if (atRoot) {
      const root = await tree.openRoot();
      await withFolder(root, async (dir) => {
        for (const name of await namesIn(dir)) await removeTree(dir, name);
      });
      return;
    }
    const parent = await tree.folder(parentNames);
    await withFolder(parent.handle, (dir) => removeTree(dir, staging[staging.length - 1] as string));
  };
  try {
    await unpackEntries(tarEntries(io.input, false), treeSink(tree, staging), args.maxBytes);
    for (const config of args.configs) {
      const configNames = namesOf(config.path);
      const folder = await tree.makeFolders([...staging, ...configNames.slice(0, -1)]);
      await withFolder(folder, (dir) =>
        replaceFile(
          dir,
          configNames[configNames.length - 1] as string,
          Readable.from([Buffer.from(config.text)]),
          0o640,
        ),
      );
    }
    if (atRoot) return;
    const parent = await tree.folder(parentNames);
    await withFolder(parent.handle, async (dir) => {
      const name = names[names.length - 1] as string;
      // An empty folder made beforehand (by the user, or by the checks) gives way to the new one.
      await rmdir(at(dir, name)).catch((error: unknown) => {
        if (errorCode(error) !== 'ENOENT') throw error;
      });
      await rename(at(dir, staging[staging.length - 1] as string), at(dir, name));
    });
  } catch (error) {
    await clear().catch(() => undefined);
    throw error;
  }
}

/** Creates a folder and the missing ones above it (a site's or an FTP account's folder). */
export async function prepare(tree: Tree, args: { path: string }): Promise<void> {
  const handle = await tree.makeFolders(namesOf(args.path));
  await handle.close();
}
