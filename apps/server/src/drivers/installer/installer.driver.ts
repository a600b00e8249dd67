import type { Readable } from 'node:stream';
import type { FilesPlace } from '../files/service-files.ts';

/**
 * The installer driver: every file the application installer reads or writes. The catalogue
 * (manifests, templates, logos, payloads under the apps folder) is only read; an install writes
 * into the service's home through its confined worker, with the service's rights, and only
 * into a hidden staging folder of its own until the final rename, so a failure at any step
 * leaves the site as it was. What to install and with which values (plans, templates, answers)
 * is decided by the installer module.
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

  /**
   * Checks an install folder below a service home: the folders above it are made, and it is
   * missing or empty; field errors on `subpath` otherwise (a link in the way included).
   */
  checkTarget(place: FilesPlace, folder: string): Promise<void>;
  /**
   * Installs a payload and its rendered config files (0640: they hold the database password)
   * at `folder`, as the service's user: into a hidden folder beside it, renamed into place at the
   * end, so a failure leaves the site as it was. A PayloadError when the payload turns out
   * unsafe or bigger than `maxBytes`; an error with code ENOTEMPTY, EEXIST or ENOTDIR when the
   * folder was taken meanwhile.
   */
  install(
    place: FilesPlace,
    folder: string,
    payload: string,
    configs: { path: string; text: string }[],
    maxBytes: number,
  ): Promise<void>;
}
