import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import { extract } from 'tar-stream';
import { PayloadError } from './installer.driver.ts';

/**
 * The files of an application package: a folder, or a .tar.gz. Either way only plain files and
 * folders with relative, dot-dot-free names are taken — links, devices and absolute or escaping
 * names make the whole package invalid — and the total size and the number of entries are capped,
 * so a package can neither write outside its install folder nor fill the disk.
 */

const MAX_ENTRIES = 20_000;

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
    throw new PayloadError(`unsafe entry name: ${JSON.stringify(name)}`);
  return segments.join('/');
}

interface Entry {
  name: string;
  kind: 'file' | 'directory';
  size: number;
  /** The file's content; consumed (or drained) before the next entry. */
  open: () => Readable;
}

/** Every entry of a folder payload, depth first; a link anywhere is refused. */
async function* folderEntries(root: string): AsyncGenerator<Entry> {
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop() as string;
    for (const item of await readdir(path.join(root, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${item.name}` : item.name;
      const full = path.join(root, name);
      if (item.isDirectory()) {
        yield { name, kind: 'directory', size: 0, open: () => Readable.from([]) };
        pending.push(name);
      } else if (item.isFile()) {
        const { size } = await lstat(full);
        yield { name, kind: 'file', size, open: () => createReadStream(full) };
      } else {
        throw new PayloadError(`not a plain file or folder: ${name}`);
      }
    }
  }
}

/** Every entry of a .tar.gz payload, read as a stream (never whole in memory). */
async function* archiveEntries(file: string): AsyncGenerator<Entry> {
  const entries = extract();
  const source = createReadStream(file);
  const gunzip = createGunzip();
  const fail = (error: Error) => entries.destroy(error);
  source.on('error', fail);
  gunzip.on('error', fail);
  source.pipe(gunzip).pipe(entries);
  try {
    for await (const entry of entries) {
      const { header } = entry;
      if (header.type !== 'file' && header.type !== 'directory') {
        entry.resume();
        throw new PayloadError(`not a plain file or folder: ${header.name} (${header.type})`);
      }
      let opened = false;
      yield {
        name: header.name,
        kind: header.type,
        size: header.size ?? 0,
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

async function entriesOf(payload: string): Promise<AsyncGenerator<Entry>> {
  const info = await stat(payload);
  if (info.isDirectory()) return folderEntries(payload);
  if (info.isFile() && /\.(tar\.gz|tgz)$/.test(payload)) return archiveEntries(payload);
  throw new PayloadError(`a payload is a folder or a .tar.gz: ${payload}`);
}

/** Checks every entry and adds up the file sizes (bytes); throws when the payload is unsafe or too big. */
export async function payloadSize(payload: string, maxBytes: number): Promise<number> {
  let total = 0;
  let count = 0;
  for await (const entry of await entriesOf(payload)) {
    safeRelative(entry.name);
    total += entry.size;
    count += 1;
    if (total > maxBytes) throw new PayloadError(`larger than ${maxBytes} bytes`);
    if (count > MAX_ENTRIES) throw new PayloadError(`more than ${MAX_ENTRIES} entries`);
  }
  return total;
}

/**
 * Writes the payload into `target`, a new empty folder of the installer's: files 0644, folders
 * 0755, each file created exclusively (`wx`), so nothing existing is overwritten or followed.
 */
export async function unpackPayload(payload: string, target: string, maxBytes: number): Promise<void> {
  let total = 0;
  let count = 0;
  for await (const entry of await entriesOf(payload)) {
    const relative = safeRelative(entry.name);
    count += 1;
    if (count > MAX_ENTRIES) throw new PayloadError(`more than ${MAX_ENTRIES} entries`);
    if (relative === '') continue;
    const destination = path.join(target, relative);
    if (entry.kind === 'directory') {
      await mkdir(destination, { recursive: true, mode: 0o755 });
      continue;
    }
    total += entry.size;
    if (total > maxBytes) throw new PayloadError(`larger than ${maxBytes} bytes`);
    await mkdir(path.dirname(destination), { recursive: true, mode: 0o755 });
    let written = 0;
    const counted = entry.open();
    counted.on('data', (chunk: Buffer) => {
      written += chunk.length;
      // The header's size is what was checked; a stream that says otherwise is cut.
      if (written > entry.size) counted.destroy(new PayloadError(`entry longer than declared: ${relative}`));
    });
    await pipeline(counted, createWriteStream(destination, { flags: 'wx', mode: 0o644 }));
  }
}
