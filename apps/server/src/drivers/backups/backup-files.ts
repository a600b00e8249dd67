import { createReadStream, createWriteStream } from 'node:fs';
import { cp, lchown, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The files a backup writes and a restore reads besides restic's own: the staging folder of what
 * is not a file already (database dumps, the zone, the settings), and the temporary folders a
 * restore unpacks into before the result is copied to its place.
 */
export class BackupFiles {
  constructor(private readonly workDir: string) {}

  /**
   * The staging folder of a service (the same path every run, so restic finds its parent
   * snapshot). It keeps the databases' dumps between runs — a dump whose database did not change
   * is not made again, and restic skips the file it already holds — and drops the dumps of
   * databases the service no longer has.
   */
  async staging(serviceId: number, databases: string[]): Promise<string> {
    const dir = path.join(this.workDir, 'staging', String(serviceId));
    await mkdir(path.join(dir, 'databases'), { recursive: true, mode: 0o700 });
    const keep = new Set(databases.flatMap((name) => [`${name}.sql`, `${name}.state.json`]));
    for (const entry of await readdir(path.join(dir, 'databases'))) {
      if (!keep.has(entry)) await rm(path.join(dir, 'databases', entry), { recursive: true, force: true });
    }
    return dir;
  }

  /** Writes a file whole: aside, then renamed over the old one (a dump cut short never replaces one). */
  async replaceWith(file: string, content: Readable): Promise<void> {
    const temp = `${file}.partial`;
    try {
      await this.writeStream(temp, content);
      await rename(temp, file);
    } finally {
      await rm(temp, { force: true });
    }
  }

  async readJsonOr<T>(file: string, fallback: T): Promise<T> {
    return this.readJson<T>(file).catch(() => fallback);
  }

  stagingPath(serviceId: number): string {
    return path.join(this.workDir, 'staging', String(serviceId));
  }

  async clear(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
  }

  async writeStream(file: string, content: Readable): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await pipeline(content, createWriteStream(file, { mode: 0o600 }));
  }

  async writeJson(file: string, value: unknown): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  }

  async readJson<T>(file: string): Promise<T> {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  }

  read(file: string): Readable {
    return createReadStream(file);
  }

  async exists(target: string): Promise<boolean> {
    return lstat(target).then(
      () => true,
      () => false,
    );
  }

  /** A new, empty folder for one restore. */
  async restoreDir(): Promise<string> {
    await mkdir(path.join(this.workDir, 'restore'), { recursive: true, mode: 0o700 });
    return mkdtemp(path.join(this.workDir, 'restore', 'run-'));
  }

  /**
   * Copies a restored tree over `to` (files replaced, others kept, links copied as links), then,
   * as root, gives everything copied to `owner`. Only for the mail root, which no customer writes
   * links into; a service home is restored through its confined worker (ServiceFiles.restore).
   */
  async copyInto(from: string, to: string, owner: { uid: number; gid: number } | undefined): Promise<void> {
    await cp(from, to, { recursive: true, force: true, preserveTimestamps: true, verbatimSymlinks: true });
    if (!owner || process.getuid?.() !== 0) return;
    const pending = [to];
    while (pending.length > 0) {
      const current = pending.pop() as string;
      await lchown(current, owner.uid, owner.gid);
      if ((await lstat(current)).isDirectory())
        for (const name of await readdir(current)) pending.push(path.join(current, name));
    }
  }

  /** Whether a restored path is a folder (else one file or link). */
  async isFolder(target: string): Promise<boolean> {
    return (await lstat(target)).isDirectory();
  }

  /** The sub-folders of a folder (none when it does not exist). */
  async folders(parent: string): Promise<string[]> {
    const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort();
  }

  /** A mailbox's Maildir++ folders besides the inbox (`.Sent`, `.Archive.2024`), sorted. */
  async maildirFolders(mailbox: string): Promise<string[]> {
    const entries = await readdir(path.join(mailbox, 'Maildir'), { withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isDirectory() && /^\.[^.]/.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  }

  /** The owner of a folder (the mail root's is the mail user). */
  async ownerOf(folder: string): Promise<{ uid: number; gid: number } | undefined> {
    const info = await lstat(folder).catch(() => undefined);
    return info && { uid: info.uid, gid: info.gid };
  }
}
