import { randomBytes } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import {
  chmod,
  copyFile,
  cp,
  lchown,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EXTRACTABLE_PATTERN, FILE_EDIT_MAX_BYTES, type FileEntry, UPLOAD_CHUNK_BYTES } from '@panel247/contract/files';
import { ZipFile } from 'yazl';
import { ConflictError, FieldErrors, NotFoundError } from '../../errors.ts';
import { ArchiveError, unpackArchive } from '../archives/archive.ts';
import { existing, isInside, rooted } from './rooted-path.ts';

/** Extensions never offered to the text editor (the read still checks the bytes). */
const BINARY_EXTENSIONS = new Set(
  'png jpg jpeg gif webp ico bmp tif tiff svgz avif zip gz tgz tar bz2 xz 7z rar pdf mp3 mp4 m4a ogg wav webm mov avi woff woff2 ttf otf eot exe dll so bin jar class phar sqlite db'.split(
    ' ',
  ),
);

/** How long the staged part of an upload waits for its next chunk. */
const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

function editableName(name: string, size: number): boolean {
  const extension = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
  return size <= FILE_EDIT_MAX_BYTES && !BINARY_EXTENSIONS.has(extension);
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/** A file being uploaded in chunks, kept outside the service home until its last chunk. */
export interface UploadTarget {
  /** Names the staged file: the same upload of the same user resumes it. */
  key: string;
  folder: string;
  name: string;
  size: number;
}

/**
 * The files of a service for its file manager, below a root (the service home, or an FTP
 * account's folder). Every path is checked by rooted-path.ts; links are listed, deleted and
 * renamed as links, and followed for reading and writing only when they lead inside the root. What the panel writes as root
 * is given to the hosting user, as FTP uploads are, so FTP, PHP and the file manager see the same
 * owner. (The checks and the use are separate calls, so a user racing a link swap over FTP could
 * at most make an operation fail: reads and writes open the final path with O_NOFOLLOW.)
 */
export class ServiceFiles {
  constructor(
    private readonly owner: { uid: number; gid: number },
    /** Where uploads wait for their last chunk (the panel's data folder, never a home). */
    private readonly stagingDir: string,
  ) {}

  private async giveToOwner(target: string): Promise<void> {
    if (process.getuid?.() !== 0) return;
    await lchown(target, this.owner.uid, this.owner.gid);
  }

  async list(root: string, folder: string): Promise<FileEntry[]> {
    const where = await existing(root, folder, { links: 'follow' });
    if (where.kind !== 'folder') throw new NotFoundError('files.error.not_a_folder');
    const entries: FileEntry[] = [];
    for (const name of await readdir(where.entry)) {
      const info = await lstat(path.join(where.entry, name)).catch(() => undefined);
      if (!info) continue;
      const type = info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'folder' : 'file';
      entries.push({
        name,
        type,
        size: type === 'file' ? info.size : 0,
        modified: Math.floor(info.mtimeMs / 1000),
        mode: octal(info.mode),
        editable: type === 'file' && info.isFile() && editableName(name, info.size),
        extractable: type === 'file' && EXTRACTABLE_PATTERN.test(name),
      });
    }
    const order = { folder: 0, link: 1, file: 1 } as const;
    return entries.sort((a, b) => order[a.type] - order[b.type] || a.name.localeCompare(b.name));
  }

  async createFolder(root: string, folder: string, name: string): Promise<void> {
    const where = await rooted(root, folder === '' ? name : `${folder}/${name}`);
    try {
      await mkdir(where.entry);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw FieldErrors.one('name', 'files.error.exists');
      throw error;
    }
    await this.giveToOwner(where.entry);
  }

  /** Renames an entry within its folder (a link is renamed as a link). */
  async rename(root: string, relative: string, name: string): Promise<void> {
    const from = await existing(root, relative, { links: 'as_link' });
    if (from.name === '') throw new ConflictError('files.error.root');
    const to = path.join(from.parent, name);
    if (
      await lstat(to).then(
        () => true,
        () => false,
      )
    )
      throw FieldErrors.one('name', 'files.error.exists');
    await rename(from.entry, to);
  }

  /** Deletes a file, a link (not what it points to) or a folder with everything inside. */
  async remove(root: string, relative: string): Promise<void> {
    const where = await existing(root, relative, { links: 'as_link' });
    if (where.name === '') throw new ConflictError('files.error.root');
    // rm does not follow links, inside the folder either.
    await rm(where.entry, { recursive: true, force: true });
  }

  /**
   * Copies (links as links, nothing followed) or moves the entry into the folder `to`, under the
   * same name; a name taken there is refused. A folder cannot go into itself.
   */
  async copyOrMove(root: string, relative: string, to: string, how: 'copy' | 'move'): Promise<void> {
    const from = await existing(root, relative, { links: 'as_link' });
    if (from.name === '') throw new ConflictError('files.error.root');
    const folder = await existing(root, to, { links: 'follow' });
    if (folder.kind !== 'folder') throw FieldErrors.one('to', 'files.error.not_a_folder');
    const target = path.join(folder.entry, from.name);
    if (target === from.entry || isInside(from.entry, folder.entry))
      throw FieldErrors.one('to', 'files.error.into_itself');
    if (
      await lstat(target).then(
        () => true,
        () => false,
      )
    )
      throw FieldErrors.one('to', 'files.error.exists');
    if (how === 'move') {
      await rename(from.entry, target);
      return;
    }
    await cp(from.entry, target, {
      recursive: true,
      dereference: false,
      verbatimSymlinks: true,
      errorOnExist: true,
      force: false,
    });
    await this.giveTreeToOwner(target);
  }

  /** Sets the permission bits (no setuid, setgid or sticky bit: the contract's pattern). */
  async setMode(root: string, relative: string, mode: number): Promise<void> {
    const where = await existing(root, relative, { links: 'follow' });
    await chmod(where.entry, mode & 0o777);
  }

  /** What the panel copied, as root, given to the hosting user like everything else it writes. */
  private async giveTreeToOwner(top: string): Promise<void> {
    if (process.getuid?.() !== 0) return;
    const pending = [top];
    while (pending.length > 0) {
      const current = pending.pop() as string;
      await lchown(current, this.owner.uid, this.owner.gid);
      const info = await lstat(current);
      if (info.isDirectory()) for (const name of await readdir(current)) pending.push(path.join(current, name));
    }
  }

  /**
   * Unpacks an archive (.zip, .tar.gz) into a new folder beside it, named after it (`site.zip` →
   * `site`, then `site (2)`…), at most `maxBytes` unpacked; on any refusal the new folder goes.
   * Answers the new folder's path relative to the root.
   */
  async extract(root: string, relative: string, maxBytes: number): Promise<string> {
    const archive = await existing(root, relative, { links: 'follow' });
    if (archive.kind !== 'file' || !EXTRACTABLE_PATTERN.test(archive.name))
      throw new ConflictError('files.error.not_an_archive');
    const base = archive.name.replace(EXTRACTABLE_PATTERN, '') || 'archive';
    let name = base;
    for (
      let n = 2;
      await lstat(path.join(archive.parent, name)).then(
        () => true,
        () => false,
      );
      n++
    )
      name = `${base} (${n})`;
    const target = path.join(archive.parent, name);
    await mkdir(target);
    try {
      await unpackArchive(archive.entry, target, maxBytes);
    } catch (error) {
      await rm(target, { recursive: true, force: true });
      if (error instanceof ArchiveError) throw new ConflictError('files.error.archive', { reason: error.message });
      throw error;
    }
    await this.giveTreeToOwner(target);
    return path.relative(archive.root, target).split(path.sep).join('/');
  }

  /**
   * A folder (or one file) as a .zip, streamed as it is written: files and folders only, links
   * left out (never followed), what cannot be read skipped.
   */
  async zip(root: string, relative: string): Promise<{ name: string; stream: Readable }> {
    const top = await existing(root, relative, { links: 'follow' });
    const zip = new ZipFile();
    const label = top.name === '' ? 'files' : top.name;
    const add = async (full: string, inZip: string): Promise<void> => {
      const info = await lstat(full).catch(() => undefined);
      if (!info) return;
      if (info.isDirectory()) {
        zip.addEmptyDirectory(inZip, { mtime: info.mtime, mode: info.mode });
        for (const name of (await readdir(full)).sort()) await add(path.join(full, name), `${inZip}/${name}`);
      } else if (info.isFile()) {
        zip.addReadStreamLazy(inZip, { mtime: info.mtime, mode: info.mode, size: info.size }, (done) => {
          open(full, constants.O_RDONLY | constants.O_NOFOLLOW).then(
            (handle) => done(null, handle.createReadStream({ autoClose: true })),
            (error: Error) => done(error, undefined as unknown as Readable),
          );
        });
      }
    };
    void add(top.entry, label).then(
      () => zip.end(),
      (error: Error) => (zip.outputStream as Readable).destroy(error),
    );
    return { name: `${label}.zip`, stream: zip.outputStream as Readable };
  }

  async read(root: string, relative: string): Promise<string> {
    const where = await existing(root, relative, { links: 'follow' });
    if (where.kind !== 'file') throw new NotFoundError('files.error.not_a_file');
    const handle = await open(where.entry, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new NotFoundError('files.error.not_a_file');
      if (info.size > FILE_EDIT_MAX_BYTES) throw new ConflictError('files.error.too_large_to_edit');
      const bytes = await handle.readFile();
      try {
        if (bytes.includes(0)) throw new Error('binary');
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw new ConflictError('files.error.not_text');
      }
    } finally {
      await handle.close();
    }
  }

  /**
   * Writes a text file whole: aside first, then renamed over the old one, so a reader (a site)
   * never sees half of it. An existing file keeps its permission bits.
   */
  async save(root: string, relative: string, content: string): Promise<void> {
    const exists = await lstat((await rooted(root, relative)).entry).then(
      () => true,
      () => false,
    );
    // An existing file is written where it really is (through a link that stays inside the root).
    const where = exists ? await existing(root, relative, { links: 'follow' }) : await rooted(root, relative);
    if (where.name === '') throw new ConflictError('files.error.root');
    const before = await lstat(where.entry).catch(() => undefined);
    if (before && !before.isFile()) throw new ConflictError('files.error.not_a_file');
    const temp = path.join(where.parent, `.${where.name}.p247-${randomBytes(6).toString('hex')}`);
    try {
      const handle = await open(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o644,
      );
      try {
        await handle.writeFile(content, 'utf8');
        if (before) await handle.chmod(before.mode & 0o7777);
      } finally {
        await handle.close();
      }
      await this.giveToOwner(temp);
      await rename(temp, where.entry);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** The file as a stream, for a download. */
  async download(root: string, relative: string): Promise<{ name: string; size: number; stream: Readable }> {
    const where = await existing(root, relative, { links: 'follow' });
    if (where.kind !== 'file') throw new NotFoundError('files.error.not_a_file');
    const handle = await open(where.entry, constants.O_RDONLY | constants.O_NOFOLLOW);
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      throw new NotFoundError('files.error.not_a_file');
    }
    return { name: where.name, size: info.size, stream: handle.createReadStream({ autoClose: true }) };
  }

  private staged(key: string): string {
    if (!/^[a-f0-9]{64}$/.test(key)) throw new Error('bad upload key');
    return path.join(this.stagingDir, key);
  }

  /**
   * How much of an upload the panel holds: the staged part's bytes, or — once its last chunk
   * moved it into place — its whole size and done (a client that lost that answer need not send
   * the file again). Nothing started: 0.
   */
  async uploaded(key: string): Promise<{ received: number; done: boolean }> {
    const staged = await stat(this.staged(key)).catch(() => undefined);
    if (staged) return { received: staged.size, done: false };
    const finished = await readFile(`${this.staged(key)}.done`, 'utf8').catch(() => undefined);
    return finished === undefined ? { received: 0, done: false } : { received: Number(finished), done: true };
  }

  /** Uploads nobody continued for a day are not coming back: their staged parts go. */
  private async dropAbandonedUploads(): Promise<void> {
    const before = Date.now() - ABANDONED_UPLOAD_MS;
    for (const name of await readdir(this.stagingDir).catch(() => [] as string[])) {
      const staged = path.join(this.stagingDir, name);
      const info = await lstat(staged).catch(() => undefined);
      if (info?.isFile() && info.mtimeMs < before) await rm(staged, { force: true });
    }
  }

  /**
   * Takes one chunk of an upload at `offset` (0 starts it over; any other offset must be where
   * the staged file ends). The chunk that completes the file moves it into its folder: copied
   * beside its final name, then renamed over it. Answers the bytes received.
   */
  async uploadChunk(root: string, target: UploadTarget, offset: number, body: Readable): Promise<number> {
    const file = this.staged(target.key);
    await mkdir(this.stagingDir, { recursive: true, mode: 0o700 });
    if (offset === 0) {
      await this.dropAbandonedUploads();
      await rm(`${file}.done`, { force: true });
    }
    const held = await this.uploaded(target.key);
    if (offset !== 0 && (held.done || offset !== held.received)) throw new ConflictError('files.error.upload_offset');
    // Before any byte is taken: the folder must be there and the name free of folders and links.
    const where = await rooted(root, target.folder === '' ? target.name : `${target.folder}/${target.name}`);
    const present = await lstat(where.entry).catch(() => undefined);
    if (present && !present.isFile()) throw FieldErrors.one('name', 'files.error.exists');

    const room = Math.min(UPLOAD_CHUNK_BYTES, target.size - offset);
    let received = 0;
    const out = createWriteStream(file, { flags: offset === 0 ? 'w' : 'r+', start: offset, mode: 0o600 });
    // A chunk cut short stays (the upload resumes from what arrived); one longer than announced
    // is a broken client: its upload starts over.
    await pipeline(
      body,
      async function* limit(chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          received += chunk.length;
          if (received > room) throw new ConflictError('files.error.upload_size');
          yield chunk;
        }
      },
      out,
    ).catch(async (error: unknown) => {
      if (error instanceof ConflictError) await rm(file, { force: true });
      throw error;
    });
    const total = offset + received;
    if (total < target.size) return total;

    const temp = path.join(where.parent, `.${where.name}.p247-${randomBytes(6).toString('hex')}`);
    try {
      // A copy, not a rename: the staging folder may be on another file system than the homes.
      await copyFile(file, temp, constants.COPYFILE_EXCL);
      await chmod(temp, 0o644);
      await this.giveToOwner(temp);
      await rename(temp, where.entry);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await rm(file, { force: true });
    // Kept a day (dropAbandonedUploads), for a client that lost this answer and asks again.
    await writeFile(`${file}.done`, String(total), { mode: 0o600 });
    return total;
  }
}
