import { createReadStream } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isFilePath, UPLOAD_CHUNK_BYTES } from '@panel247/contract/file-rules';
import type { FileEntry } from '@panel247/contract/files';
import { ConflictError } from '../../errors.ts';
import type { FileOwner, FileWorkers, WorkerRequest } from './confined/protocol.ts';

/**
 * The archive readers and writers, loaded when a restore or an install first needs them: the
 * processes that only prepare folders (a node agent) need not hold tar and zip code.
 */
async function archives() {
  const [{ entriesOf }, { packEntries, packFolder }] = await Promise.all([
    import('../archives/archive.ts'),
    import('../archives/pack-folder.ts'),
  ]);
  return { entriesOf, packEntries, packFolder };
}

/** How long the staged part of an upload waits for its next chunk. */
const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

/**
 * Which files: a service home (absolute, chosen by the panel), a folder below it as the root
 * (an FTP account's, '' for the home), and the service's user, whose rights every operation
 * runs with (absent: the panel's own, when services have no users of their own).
 */
export interface FilesPlace {
  home: string;
  folder: string;
  owner?: FileOwner | undefined;
}

/** A file being uploaded in chunks, kept outside the service home until its last chunk. */
export interface UploadTarget {
  /** Names the staged file: the same upload of the same user resumes it. */
  key: string;
  folder: string;
  name: string;
  size: number;
}

function checkedPath(relative: string): string {
  if (!isFilePath(relative)) throw new ConflictError('files.error.path');
  return relative;
}

function joined(folder: string, name: string): string {
  return checkedPath(folder === '' ? name : `${folder}/${name}`);
}

/**
 * The files of a service for its file manager. Every operation on the home runs in a confined
 * worker (confined/): a process of its own, as the service's user, walking the path one name
 * at a time without following a link out of the root. Only the staging of uploads, in the
 * panel's own data folder, happens here.
 */
export class ServiceFiles {
  constructor(
    private readonly workers: FileWorkers,
    /** Where uploads wait for their last chunk (the panel's data folder, never a home). */
    private readonly stagingDir: string,
  ) {}

  private request(place: FilesPlace, op: WorkerRequest['op'], args: Record<string, unknown>): WorkerRequest {
    return {
      op,
      base: place.home,
      folder: place.folder === '' ? [] : checkedPath(place.folder).split('/'),
      args,
      owner: place.owner,
    };
  }

  list(place: FilesPlace, folder: string): Promise<FileEntry[]> {
    return this.workers.call(this.request(place, 'list', { path: checkedPath(folder) }));
  }

  async createFolder(place: FilesPlace, folder: string, name: string): Promise<void> {
    await this.workers.call(this.request(place, 'mkdir', { folder: checkedPath(folder), name: joined('', name) }));
  }

  /** Renames an entry within its folder (a link is renamed as a link). */
  async rename(place: FilesPlace, relative: string, name: string): Promise<void> {
    await this.workers.call(this.request(place, 'rename', { path: checkedPath(relative), name: joined('', name) }));
  }

  /** Deletes a file, a link (not what it points to) or a folder with everything inside. */
  async remove(place: FilesPlace, relative: string): Promise<void> {
    await this.workers.call(this.request(place, 'remove', { path: checkedPath(relative) }));
  }

  /**
   * Copies (links as links, nothing followed) or moves the entry into the folder `to`; a copy
   * takes at most `room` bytes, or is removed whole.
   */
  async copyOrMove(place: FilesPlace, relative: string, to: string, how: 'copy' | 'move', room?: number) {
    await this.workers.call(
      this.request(place, 'copyOrMove', { path: checkedPath(relative), to: checkedPath(to), how, room }),
    );
  }

  /** Sets the permission bits (no setuid, setgid or sticky bit: the contract's pattern). */
  async setMode(place: FilesPlace, relative: string, mode: number): Promise<void> {
    await this.workers.call(this.request(place, 'chmod', { path: checkedPath(relative), mode: mode & 0o777 }));
  }

  /** Unpacks an archive into a new folder beside it, within `maxBytes`; answers that folder. */
  async extract(place: FilesPlace, relative: string, maxBytes: number): Promise<string> {
    const answer = await this.workers.call<{ path: string }>(
      this.request(place, 'extract', { path: checkedPath(relative), room: maxBytes }),
    );
    return answer.path;
  }

  /** A folder (or one file) as a .zip, streamed as it is written. */
  async zip(place: FilesPlace, relative: string): Promise<{ name: string; stream: Readable }> {
    const { meta, output } = await this.workers.stream(this.request(place, 'zip', { path: checkedPath(relative) }));
    return { name: String(meta.name), stream: output };
  }

  async read(place: FilesPlace, relative: string): Promise<string> {
    const answer = await this.workers.call<{ content: string }>(
      this.request(place, 'read', { path: checkedPath(relative) }),
    );
    return answer.content;
  }

  /** Writes a text file whole (aside, then renamed over the old one). */
  async save(place: FilesPlace, relative: string, content: string): Promise<void> {
    await this.workers.call(this.request(place, 'save', { path: checkedPath(relative), content }));
  }

  /** The file as a stream of the size it had when opened, for a download. */
  async download(place: FilesPlace, relative: string): Promise<{ name: string; size: number; stream: Readable }> {
    const { meta, output } = await this.workers.stream(
      this.request(place, 'download', { path: checkedPath(relative) }),
    );
    return { name: String(meta.name), size: Number(meta.size), stream: output };
  }

  /**
   * Puts a restored tree (`source`, a folder or file of the panel's own) back at `relative`:
   * written by the worker as the service's user, over what is there, replacing any link in the
   * way rather than following it.
   */
  async restore(place: FilesPlace, relative: string, source: string, top: 'file' | 'folder'): Promise<void> {
    const { packFolder } = await archives();
    await this.workers.call(this.request(place, 'restore', { path: checkedPath(relative), top }), () =>
      packFolder(source),
    );
  }

  /**
   * Checks where an application goes: the folders above `folder` made, `folder` itself missing
   * or empty (field errors on `subpath` otherwise).
   */
  async installTarget(place: FilesPlace, folder: string): Promise<void> {
    await this.workers.call(this.request(place, 'installTarget', { path: checkedPath(folder) }));
  }

  /**
   * Installs an application's payload (a folder, .tar.gz or .zip of the catalogue) and its
   * rendered config files at `folder`, whole or not at all; an unsafe or too big payload fails
   * with an ArchiveError.
   */
  async install(
    place: FilesPlace,
    folder: string,
    payload: string,
    configs: { path: string; text: string }[],
    maxBytes: number,
  ): Promise<void> {
    const { entriesOf, packEntries } = await archives();
    const entries = await entriesOf(payload);
    await this.workers.call(this.request(place, 'install', { path: checkedPath(folder), configs, maxBytes }), () =>
      packEntries(entries),
    );
  }

  /** Creates a folder and those above it that are missing (a site's, an FTP account's). */
  async prepare(place: FilesPlace, relative: string): Promise<void> {
    await this.workers.call(this.request(place, 'prepare', { path: checkedPath(relative) }));
  }

  /** Bytes the root holds, every entry counted. */
  async usage(place: FilesPlace): Promise<number> {
    return (await this.workers.call<{ bytes: number }>(this.request(place, 'usage', {}))).bytes;
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
   * the staged file ends). The chunk that completes the file hands it to the worker, which writes
   * it beside its final name and renames it over; a folder swapped for a link meanwhile makes
   * that step fail, never write elsewhere. Answers the bytes received.
   */
  async uploadChunk(place: FilesPlace, target: UploadTarget, offset: number, body: Readable): Promise<number> {
    const file = this.staged(target.key);
    await mkdir(this.stagingDir, { recursive: true, mode: 0o700 });
    if (offset === 0) {
      await this.dropAbandonedUploads();
      await rm(`${file}.done`, { force: true });
      await writeFile(`${file}.size`, String(target.size), { mode: 0o600 });
    }
    const held = await this.uploaded(target.key);
    if (offset !== 0 && (held.done || offset !== held.received)) throw new ConflictError('files.error.upload_offset');
    // The size the quota was checked against is the one the first chunk announced.
    const announced = Number(await readFile(`${file}.size`, 'utf8').catch(() => Number.NaN));
    if (announced !== target.size) throw new ConflictError('files.error.upload_offset');
    // Before any byte is taken: the folder must be there and the name free of folders and links.
    const relative = joined(target.folder, target.name);
    await this.workers.call(this.request(place, 'vacant', { path: relative }));

    const room = Math.min(UPLOAD_CHUNK_BYTES, target.size - offset);
    let received = 0;
    // Opened before any byte is read, so that a refused chunk's cleanup finds the file to remove.
    const staged = await open(file, offset === 0 ? 'w' : 'r+', 0o600);
    const out = staged.createWriteStream({ start: offset });
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
      await staged.close().catch(() => undefined);
      if (error instanceof ConflictError)
        await Promise.all([rm(file, { force: true }), rm(`${file}.size`, { force: true })]);
      throw error;
    });
    const total = offset + received;
    if (total < target.size) return total;

    await this.workers.call(this.request(place, 'write', { path: relative, size: total }), () =>
      createReadStream(file),
    );
    await rm(file, { force: true });
    await rm(`${file}.size`, { force: true });
    // Kept a day (dropAbandonedUploads), for a client that lost this answer and asks again.
    await writeFile(`${file}.done`, String(total), { mode: 0o600 });
    return total;
  }
}
