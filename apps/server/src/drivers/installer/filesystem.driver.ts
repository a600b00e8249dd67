import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { archiveSize, unpackArchive } from '../archives/archive.ts';
import type { InstallerDriver } from './installer.driver.ts';

/** The installer's files on the local file system: the catalogue folder and the service homes. */
export class FileSystemInstallerDriver implements InstallerDriver {
  async packageFolders(appsDir: string): Promise<string[]> {
    const entries = await readdir(appsDir, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
      .map((name) => path.join(appsDir, name));
  }

  readText(file: string): Promise<string> {
    return readFile(file, 'utf8');
  }

  async ensureExists(file: string): Promise<void> {
    await stat(file);
  }

  payloadSize(payload: string, maxBytes: number): Promise<number> {
    return archiveSize(payload, maxBytes);
  }

  openLogo(file: string): Readable {
    return createReadStream(file);
  }

  async isVacant(target: string): Promise<boolean> {
    // lstat: a link in the target's place is not followed, and counts as taken.
    const existing = await lstat(target).catch(() => null);
    if (!existing) return true;
    return existing.isDirectory() && (await readdir(target)).length === 0;
  }

  async createStaging(target: string): Promise<string> {
    const staging = path.join(path.dirname(target), `.panel247-install-${randomBytes(6).toString('hex')}`);
    await mkdir(staging, { mode: 0o755 });
    return staging;
  }

  unpack(payload: string, staging: string, maxBytes: number): Promise<void> {
    return unpackArchive(payload, staging, maxBytes);
  }

  async writeConfigFile(staging: string, relative: string, text: string): Promise<void> {
    const file = path.resolve(staging, relative);
    // The manifest's target names were checked at load; a path that still leaves the folder is a bug.
    if (!file.startsWith(`${path.resolve(staging)}${path.sep}`)) throw new Error(`config file outside: ${relative}`);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
    await writeFile(file, text, { flag: 'w', mode: 0o640 });
  }

  async moveIntoPlace(staging: string, target: string): Promise<void> {
    await rmdir(target).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(staging, target);
  }

  async discard(staging: string): Promise<void> {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
}
