import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pack } from 'tar-stream';
import type { Entry } from './archive.ts';

/**
 * A folder of the panel's own (a restore's unpacked tree) as a plain tar stream, for a confined
 * worker to write into a home: folders, files and links as links (never followed), special
 * files left out. Names are relative to the folder; a single file is one entry named `file`.
 */
export function packFolder(source: string): Readable {
  const archive = pack();
  const add = async (full: string, name: string): Promise<void> => {
    const info = await lstat(full);
    const header = { name, mode: info.mode & 0o7777, mtime: info.mtime };
    if (info.isSymbolicLink()) {
      archive.entry({ ...header, type: 'symlink', linkname: await readlink(full) });
    } else if (info.isDirectory()) {
      if (name !== '') archive.entry({ ...header, name: `${name}/`, type: 'directory' });
      for (const child of (await readdir(full)).sort())
        await add(path.join(full, child), name === '' ? child : `${name}/${child}`);
    } else if (info.isFile()) {
      const entry = archive.entry({ ...header, name: name === '' ? 'file' : name, type: 'file', size: info.size });
      await pipeline(createReadStream(full, { start: 0, end: Math.max(0, info.size - 1) }), entry);
    }
  };
  add(source, '').then(
    () => archive.finalize(),
    (error: Error) => archive.destroy(error),
  );
  return archive as unknown as Readable;
}

/**
 * Archive entries (an application's payload, read by archive.ts) as a plain tar stream, for a
 * confined worker to unpack: the worker checks every name and size again as it writes.
 */
export function packEntries(entries: AsyncIterable<Entry>): Readable {
  const archive = pack();
  (async () => {
    for await (const entry of entries) {
      if (entry.kind === 'directory') {
        archive.entry({ name: entry.name, type: 'directory', mode: 0o755 });
        continue;
      }
      if (entry.kind !== 'file') continue;
      await pipeline(entry.open(), archive.entry({ name: entry.name, type: 'file', size: entry.size, mode: 0o644 }));
    }
  })().then(
    () => archive.finalize(),
    (error: Error) => archive.destroy(error),
  );
  return archive as unknown as Readable;
}
