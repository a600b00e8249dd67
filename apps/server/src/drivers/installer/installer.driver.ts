import type { Readable } from 'node:stream';

/**
 * The installer driver: every file the application installer reads or writes. The catalogue
 * (manifests, templates, logos, payloads under the apps folder) is only read; an install writes
 * only into a hidden staging folder of its own until the final rename, so a failure at any step
 * leaves the site as it was. What to install and with which values (plans, templates, answers)
 * is decided by the installer module; the driver is handed absolute paths it already chose.
 */

/**
 * A package's files (its payload) are unsafe or too big: a link, a device, an escaping name, too
 * many entries or bytes. The message names the entry; the installer reports a broken package.
 */
export { ArchiveError as PayloadError } from '../archives/archive.ts';

export interface InstallerDriver {
  /**
   * The folder of every package in the catalogue (absolute), sorted by name; throws when the
   * catalogue folder itself cannot be read.
   */
  packageFolders(appsDir: string): Promise<string[]>;
  /** A text file of a package (its manifest, a template), as UTF-8. */
  readText(file: string): Promise<string>;
  /** Throws unless the file exists (a logo the manifest names), so a package is refused at load. */
  ensureExists(file: string): Promise<void>;
  /**
   * Checks every entry of a payload (a folder or a .tar.gz) and answers the bytes of its files;
   * a PayloadError when it is unsafe, has too many entries or more than `maxBytes`.
   */
  payloadSize(payload: string, maxBytes: number): Promise<number>;
  /** The logo's bytes, streamed (opened lazily: a missing file fails the stream, not the call). */
  openLogo(file: string): Readable;

  /** Whether an install folder is free: missing, or an empty folder (a file or a link is not). */
  isVacant(target: string): Promise<boolean>;
  /**
   * Creates a new, empty hidden folder beside `target` and answers it. Beside, so that it is on the
   * same file system and `moveIntoPlace` is a rename: the site never sees a half-copied folder.
   */
  createStaging(target: string): Promise<string>;
  /**
   * Writes a payload into the staging folder (files 0644, folders 0755, never over an existing
   * file); a PayloadError when it turns out unsafe or bigger than `maxBytes` on the way.
   */
  unpack(payload: string, staging: string, maxBytes: number): Promise<void>;
  /**
   * Writes one rendered config file at `relative` inside the staging folder, its folders made as
   * needed. Mode 0640: config files hold the database password, for their owner only.
   */
  writeConfigFile(staging: string, relative: string, text: string): Promise<void>;
  /**
   * Renames the staging folder to `target`. An empty target folder (made by the user, or by the
   * home's prepare) gives way; a non-empty one makes it fail with ENOTEMPTY, EEXIST or ENOTDIR.
   */
  moveIntoPlace(staging: string, target: string): Promise<void>;
  /** Removes a staging folder and everything in it; never fails (it is the cleanup of a failure). */
  discard(staging: string): Promise<void>;
}
