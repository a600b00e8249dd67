import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { archiveSize } from '../archives/archive.ts';
import type { FilesPlace, ServiceFiles } from '../files/service-files.ts';
import type { InstallerDriver } from './installer.driver.ts';

/**
 * The installer's files on the local file system: the catalogue folder, read by the panel, and
 * the service homes, written by their confined workers.
 */
export class FileSystemInstallerDriver implements InstallerDriver {
  constructor(private readonly homes: ServiceFiles) {}

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

  checkTarget(place: FilesPlace, folder: string): Promise<void> {
    return this.homes.installTarget(place, folder);
  }

  install(
    place: FilesPlace,
    folder: string,
    payload: string,
    configs: { path: string; text: string }[],
    maxBytes: number,
  ): Promise<void> {
    return this.homes.install(place, folder, payload, configs, maxBytes);
  }
}
