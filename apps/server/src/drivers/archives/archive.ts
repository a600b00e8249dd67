import { createReadStream } from 'node:fs';
import { type FileHandle, lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import { extract } from 'tar-stream';
import yauzl from 'yauzl';
import { ArchiveError } from './archive-error.ts';
import { handleRange } from './handle-range.ts';

/**
 * Archives and folders unpacked into a new folder: an application package's payload (a folder or
 * a .tar.gz) and an archive a customer extracts in the file manager (.zip, .tar.gz). Either way
 * only plain files and folders with relative, dot-dot-free names are taken — links, devices and
 * absolute or escaping names make the whole archive refused — and the total size and the number
 * of entries are capped, so an archive can neither write outside its folder nor fill the disk.
 */

export { ArchiveError } from './archive-error.ts';

export const MAX_ENTRIES = 20_000;

/** Empty, `.`, `..`, a control character, or a backslash (a path separator on other systems). */
function isBadSegment(segment: string): boolean {
  return (
    segment === '' || segment === '.' || segment === '..' || hasControlCharacters(segment) || segment.includes('\\')
  );
}

/** `a/b/c.php` from an archive or folder entry name; throws for anything that could escape. */
function safeRelative(name: string): string {
  const trimmed = name.replace(/^\.\//, '').replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.') return '';
  const segments = trimmed.split('/');
  if (name.startsWith('/') || trimmed.length > 1024 || segments.some(isBadSegment))
    throw new ArchiveError(`unsafe entry name: ${JSON.stringify(name)}`);
  return segments.join('/');
}

export interface Entry {
  name: string;
  /** `symlink` only where links were asked for (a restore's own tar). */
  kind: 'file' | 'directory' | 'symlink';
  size: number;
  /** Permission bits and time, where the archive has them (tar). */
  mode: number;
  mtime?: Date | undefined;
  linkname?: string | undefined;
  /** The file's content; consumed (or drained) before the next entry. */
  open: () => Readable;
  /**
   * In a move's final copy (a restore's own tar, see `tarTree`'s `since`): the file has not
   * changed since the first copy, which brought it; the entry holds its name only.
   */
  kept?: boolean;
}

/** The pax record that marks a `kept` entry. */
export const KEPT_PAX_KEY = 'PANEL247.kept';

/** Every entry of a folder payload, depth first; a link anywhere is refused. */
async function* folderEntries(root: string): AsyncGenerator<Entry> {
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop() as string;
    for (const item of await readdir(path.join(root, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${item.name}` : item.name;
      const full = path.join(root, name);
      if (item.isDirectory()) {
        yield { name, kind: 'directory', size: 0, mode: 0o755, open: () => Readable.from([]) };
        pending.push(name);
      } else if (item.isFile()) {
        const { size } = await lstat(full);
        yield { name, kind: 'file', size, mode: 0o644, open: () => createReadStream(full) };
      } else {
        throw new ArchiveError(`not a plain file or folder: ${name}`);
      }
    }
  }
}

/** Every entry of a .tar.gz (or, `gzipped: false`, a plain tar), read as a stream (never whole in memory). */
export async function* tarEntries(source: Readable, gzipped = true, links = false): AsyncGenerator<Entry> {
  // A source that failed before anyone listened (a worker told its input broke while it was still
  // making its staging folder) has already sent its 'error': piping it would wait forever.
  if (source.errored) throw source.errored;
  if (source.destroyed) throw new ArchiveError('the archive was closed before it was read');
  const entries = extract();
  const fail = (error: Error) => entries.destroy(error);
  source.on('error', fail);
  if (gzipped) {
    const gunzip = createGunzip();
    gunzip.on('error', fail);
    source.pipe(gunzip).pipe(entries);
  } else source.pipe(entries);
  try {
    for await (const entry of entries) {
      const { header } = entry;
      if (header.type !== 'file' && header.type !== 'directory' && !(links && header.type === 'symlink')) {
        entry.resume();
        throw new ArchiveError(`not a plain file or folder: ${header.name} (${header.type})`);
      }
      let opened = false;
      yield {
        name: links ? safeRelative(header.name) : header.name,
        kind: header.type,
        size: header.size ?? 0,
        mode: header.mode ?? 0o644,
        mtime: header.mtime,
        linkname: header.linkname ?? undefined,
        kept: links && header.type === 'file' && (header.pax as Record<string, string> | null)?.[KEPT_PAX_KEY] === '1',
        open: () => {
          opened = true;
          // tar-stream's entries are streamx streams: wrapped, they behave as Node streams.
          return Readable.from(entry);
        },
      };
      // An entry nobody read is drained, so the archive moves on to the next one.
      if (!opened) entry.resume();
    }
  } finally {
    source.destroy();
  }
}

/** The unix file type bits a zip entry made on unix carries in its external attributes. */
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/**
 * Reads a zip from a file its caller opened (and closes): yauzl's own `fromFd` would close
 * that descriptor behind the caller's back.
 */
class HandleReader extends yauzl.RandomAccessReader {
  constructor(private readonly handle: FileHandle) {
    super();
  }
  override _readStreamForRange(start: number, end: number): Readable {
    return handleRange(this.handle, start, end);
  }
}

/** A zip by its path, or through a file its caller opened. */
async function openZip(file: string | FileHandle): Promise<yauzl.ZipFile> {
  const options = { lazyEntries: true, strictFileNames: false, validateEntrySizes: true };
  const size = typeof file === 'string' ? 0 : (await file.stat()).size;
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, zip: yauzl.ZipFile) =>
      error ? reject(new ArchiveError(`not a readable zip: ${error.message}`)) : resolve(zip);
    if (typeof file === 'string') yauzl.open(file, { ...options, autoClose: true }, done);
    else yauzl.fromRandomAccessReader(new HandleReader(file), size, { ...options, autoClose: false }, done);
  });
}

/** Every entry of a .zip, one at a time (yauzl reads the central directory, then each entry on demand). */
export async function* zipEntries(file: string | FileHandle): AsyncGenerator<Entry> {
  const zip = await openZip(file);
  try {
    while (true) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        zip.once('entry', resolve);
        zip.once('end', () => resolve(undefined));
        zip.once('error', (error: Error) => reject(new ArchiveError(error.message)));
        zip.readEntry();
      });
      zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
      if (!entry) return;
      const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
      const directory = entry.fileName.endsWith('/') || type === S_IFDIR;
      // 0: made where unix modes are unknown (Windows): a plain file or folder by its name.
      if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
        throw new ArchiveError(`not a plain file or folder: ${entry.fileName}`);
      const content = directory
        ? undefined
        : await new Promise<Readable>((resolve, reject) =>
            zip.openReadStream(entry, (error, stream) =>
              error ? reject(new ArchiveError(error.message)) : resolve(stream),
            ),
          );
      yield {
        name: entry.fileName,
        kind: directory ? 'directory' : 'file',
        size: directory ? 0 : entry.uncompressedSize,
        mode: directory ? 0o755 : 0o644,
        open: () => content ?? Readable.from([]),
      };
      // A stream nobody read is drained before the next entry.
      content?.resume();
    }
  } finally {
    zip.close();
  }
}

/** Every entry of a payload: a folder, a .tar.gz or a .zip. */
export async function entriesOf(payload: string): Promise<AsyncGenerator<Entry>> {
  const info = await stat(payload);
  if (info.isDirectory()) return folderEntries(payload);
  if (info.isFile() && /\.(tar\.gz|tgz)$/i.test(payload)) return tarEntries(createReadStream(payload));
  if (info.isFile() && /\.zip$/i.test(payload)) return zipEntries(payload);
  throw new ArchiveError(`not a folder, a .tar.gz or a .zip: ${payload}`);
}

/** Checks every entry and adds up the file sizes (bytes); throws when the payload is unsafe or too big. */
export async function archiveSize(payload: string, maxBytes: number): Promise<number> {
  let total = 0;
  let count = 0;
  for await (const entry of await entriesOf(payload)) {
    safeRelative(entry.name);
    total += entry.size;
    count += 1;
    if (total > maxBytes) throw new ArchiveError(`larger than ${maxBytes} bytes`);
    if (count > MAX_ENTRIES) throw new ArchiveError(`more than ${MAX_ENTRIES} entries`);
  }
  return total;
}

/**
 * Where unpacked entries go: folders and new files by their names below a folder. A sink
 * creates each file exclusively, so nothing existing is overwritten or followed.
 */
export interface UnpackSink {
  folder(names: string[]): Promise<void>;
  file(names: string[], content: Readable): Promise<void>;
}

/**
 * Writes every entry into `sink`, checking names, the entry count and the total size on the way
 * (a stream longer than its header says is cut).
 */
export async function unpackEntries(entries: AsyncIterable<Entry>, sink: UnpackSink, maxBytes: number): Promise<void> {
  let total = 0;
  let count = 0;
  for await (const entry of entries) {
    const relative = safeRelative(entry.name);
    count += 1;
    if (count > MAX_ENTRIES) throw new ArchiveError(`more than ${MAX_ENTRIES} entries`);
    if (relative === '') continue;
    const names = relative.split('/');
    if (entry.kind === 'symlink') throw new ArchiveError(`not a plain file or folder: ${entry.name}`);
    if (entry.kind === 'directory') {
      await sink.folder(names);
      continue;
    }
    total += entry.size;
    if (total > maxBytes) throw new ArchiveError(`larger than ${maxBytes} bytes`);
    await sink.folder(names.slice(0, -1));
    // The header's size is what was checked; a stream that says otherwise is cut. (Counted as it
    // is read, not by a 'data' listener, which would start the flow before the sink reads.)
    const counted = Readable.from(
      (async function* () {
        let written = 0;
        for await (const chunk of entry.open() as AsyncIterable<Buffer>) {
          written += chunk.length;
          if (written > entry.size) throw new ArchiveError(`entry longer than declared: ${relative}`);
          yield chunk;
        }
      })(),
    );
    await sink.file(names, counted);
  }
}
