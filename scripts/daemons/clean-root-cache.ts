import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileAsync, requireBinary } from './daemon-harness.ts';

/**
 * A clean Debian root made by `debootstrap`, kept as a tarball under /var/cache/panel247/clean-root
 * and keyed by what went into it (suite, variant, packages, mirror), so a machine builds it once
 * (about a minute and 300 MB for bookworm minbase with systemd) and every later run only unpacks it
 * (under a second). Two processes asking at once: one builds under a lock file, the other waits
 * for it; the tarball is written aside and renamed into place, so nobody ever reads half of one.
 */

export const CLEAN_ROOT_CACHE = '/var/cache/panel247/clean-root';

export interface CleanRootSpec {
  suite: 'bookworm';
  variant: 'minbase';
  /** What debootstrap adds (--include): systemd as PID 1, python3 for the network check. */
  packages: string[];
}

/** Debian 12 with what the harness itself needs: systemd as PID 1 and a daemon for the network check. */
export const BOOKWORM_SYSTEMD: CleanRootSpec = {
  suite: 'bookworm',
  variant: 'minbase',
  packages: ['systemd', 'systemd-sysv', 'dbus', 'iproute2', 'python3', 'ca-certificates'],
};

export const PACKAGE_NAME = /^[a-z0-9][a-z0-9+.-]+$/;

export interface DebianMirror {
  /** The archive's URI (the one debootstrap uses). */
  uri: string;
  /** The machine's deb822 sources file, copied into the root so apt inside uses the same mirror. */
  sources: string;
  /** Host names in the sources: the only ones the root's apt proxy forwards to. */
  hosts: string[];
}

/** The machine's own Debian mirror, from /etc/apt/sources.list.d/debian.sources (there is no other internet). */
export function machineMirror(file = '/etc/apt/sources.list.d/debian.sources'): DebianMirror {
  const sources = readFileSync(file, 'utf8');
  const uris = [...sources.matchAll(/^URIs:\s*(\S+)/gm)].map((match) => match[1] as string);
  const archive = uris.find((uri) => !uri.includes('security')) ?? uris[0];
  if (!archive) throw new Error(`no URIs line in ${file}`);
  const hosts = [...new Set(uris.map((uri) => new URL(uri).hostname))];
  return { uri: archive, sources, hosts };
}

export function cacheKey(spec: CleanRootSpec, mirror: DebianMirror): string {
  const what = JSON.stringify({ ...spec, packages: [...spec.packages].sort(), mirror: mirror.uri });
  return `${spec.suite}-${spec.variant}-${createHash('sha256').update(what).digest('hex').slice(0, 16)}`;
}

export interface CachedRoot {
  tarball: string;
  /** True when this call built it (the first run on the machine), false when it was already there. */
  built: boolean;
}

/** The tarball for `spec`, built when missing; safe when several processes ask at the same time. */
export function cachedRootTarball(spec: CleanRootSpec, mirror = machineMirror()): Promise<CachedRoot> {
  for (const name of spec.packages) if (!PACKAGE_NAME.test(name)) throw new Error(`not a package name: ${name}`);
  return cachedTarball(cacheKey(spec, mirror), (part) => buildTarball(spec, mirror, part));
}

/**
 * The cache itself: `<key>.tar` when it exists, otherwise `build` writes it aside (`<part>`) under
 * `<key>.tar.lock`, and the rename makes it visible whole. Others wait for the lock to go.
 */
export async function cachedTarball(key: string, build: (part: string) => Promise<void>): Promise<CachedRoot> {
  mkdirSync(CLEAN_ROOT_CACHE, { recursive: true });
  const tarball = path.join(CLEAN_ROOT_CACHE, `${key}.tar`);
  const lock = `${tarball}.lock`;
  for (;;) {
    if (existsSync(tarball)) return { tarball, built: false };
    if (takeLock(lock)) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const part = `${tarball}.part-${process.pid}`;
  try {
    if (existsSync(tarball)) return { tarball, built: false };
    await build(part);
    renameSync(part, tarball);
    return { tarball, built: true };
  } finally {
    rmSync(part, { force: true });
    rmSync(lock, { force: true });
  }
}

/** Takes the lock file, or removes it when the process that holds it is gone (a killed run). */
function takeLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx');
    writeFileSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    if (!Number.isInteger(holder) || !processAlive(holder)) rmSync(lock, { force: true });
    return false;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function buildTarball(spec: CleanRootSpec, mirror: DebianMirror, part: string): Promise<void> {
  const debootstrap = requireBinary('debootstrap', 'debootstrap');
  const folder = `${part}.folder`;
  rmSync(folder, { recursive: true, force: true });
  try {
    await execFileAsync(
      debootstrap,
      [`--variant=${spec.variant}`, `--include=${spec.packages.join(',')}`, spec.suite, folder, mirror.uri],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    // apt inside reads the machine's own sources (updates and security included), not debootstrap's one line
    rmSync(path.join(folder, 'etc/apt/sources.list'), { force: true });
    writeFileSync(path.join(folder, 'etc/apt/sources.list.d/debian.sources'), mirror.sources);
    rmSync(path.join(folder, 'var/cache/apt/archives'), { recursive: true, force: true });
    mkdirSync(path.join(folder, 'var/cache/apt/archives/partial'), { recursive: true });
    await execFileAsync('tar', ['-C', folder, '--numeric-owner', '-cf', part, '.']);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
