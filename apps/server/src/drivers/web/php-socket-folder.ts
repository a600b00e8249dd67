import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The folder of a PHP version's pool sockets (PANEL_WEB_PHP_SOCKETS, /run/php/panel247-8.2): root's,
 * searchable by everyone, because nginx's workers (www-data) connect to the sockets inside. The same
 * mode is in deploy/tmpfiles.d/panel247.conf, which makes it again after a reboot empties /run.
 */
export const PHP_SOCKET_FOLDER_MODE = 0o755;

/**
 * Makes the folder (and any missing parent) with its mode set explicitly: mkdir's mode passes
 * through the process umask, and a folder nginx cannot search makes every PHP site answer 502.
 * The folder itself is the panel's and is set even when it exists (an earlier version made it
 * 0750); an existing parent (/run/php, Debian's) keeps its mode.
 */
export async function ensurePhpSocketFolder(folder: string): Promise<void> {
  const target = path.resolve(folder);
  const first = await mkdir(target, { recursive: true, mode: PHP_SOCKET_FOLDER_MODE });
  for (let made = first ? path.resolve(first) : target; ; ) {
    await chmod(made, PHP_SOCKET_FOLDER_MODE);
    if (made === target) return;
    made = path.join(made, path.relative(made, target).split(path.sep)[0] as string);
  }
}

/** The socket of a service's pool in its PHP version's folder (the name nginx's site and the pool share). */
export function poolSocketName(serviceId: number | string): string {
  return `panel247-${serviceId}.sock`;
}

/** A sites' pool socket, as opposed to one nginx never opens (the master's idle pool). */
const POOL_SOCKET = /^panel247-\d+\.sock$/;

/** Who must reach the sockets: nginx's workers (PANEL_WEB_PHP_USER / the web server's ids). */
export interface SocketReader {
  uid: number;
  gid: number;
}

function allows(info: { uid: number; gid: number; mode: number }, reader: SocketReader, bit: number): boolean {
  if (reader.uid === 0) return true;
  if (info.uid === reader.uid) return (info.mode & (bit << 6)) !== 0;
  if (info.gid === reader.gid) return (info.mode & (bit << 3)) !== 0;
  return (info.mode & bit) !== 0;
}

const SEARCH = 0o1;
const WRITE = 0o2;

/**
 * Why nginx's workers cannot reach a PHP version's pool sockets, or null when they can: the folder
 * is missing, a folder on its way is not searchable by the reader (0750 root: every PHP site
 * answers 502), or a sites' pool socket inside is not writable by it (a connect needs write
 * permission; the master's idle pool in the same folder is no site's, and nginx never opens it). The
 * reader is taken with its primary group only. Used by `doctor` for each configured version.
 */
export async function phpSocketFolderProblem(folder: string, reader: SocketReader): Promise<string | null> {
  const target = path.resolve(folder);
  const folders: string[] = [];
  for (let current = target; ; current = path.dirname(current)) {
    folders.unshift(current);
    if (current === path.dirname(current)) break;
  }
  for (const current of folders) {
    const info = await lstat(current).catch(() => null);
    if (!info) return `${current} is missing (systemd-tmpfiles --create makes it)`;
    if (!info.isDirectory()) return `${current} is not a folder`;
    if (!allows(info, reader, SEARCH)) {
      return `${current} (mode ${(info.mode & 0o7777).toString(8)}, ${info.uid}:${info.gid}) cannot be searched by uid ${reader.uid}: make it 0755`;
    }
  }
  for (const name of (await readdir(target)).filter((entry) => POOL_SOCKET.test(entry))) {
    const info = await lstat(path.join(target, name)).catch(() => null);
    if (!info?.isSocket() || allows(info, reader, WRITE)) continue;
    return `${path.join(target, name)} cannot be opened by uid ${reader.uid}: the pool's listen.owner must be the web server's user`;
  }
  return null;
}
