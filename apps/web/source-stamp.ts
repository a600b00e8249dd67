import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * What the built web app was built from: a hash of every input's path and content (the web app,
 * the contract it imports, the lock file), written beside the build as `dist/.source-hash` by
 * every build. `npm start` and `npm run stack` rebuild only when it no longer matches
 * (scripts/build-web-if-stale.ts). A hash, not file times: a fresh clone or a checkout gives
 * every file a new time without changing anything.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
export const DIST = path.join(ROOT, 'apps/web/dist');
export const STAMP = path.join(DIST, '.source-hash');
const INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/locale-plugin.ts',
  'apps/web/precompress-plugin.ts',
  'apps/web/shell-plugin.ts',
  'apps/web/shell',
  'apps/web/source-stamp.ts',
  'apps/web/package.json',
  'packages/contract/src',
  'packages/contract/package.json',
  'package-lock.json',
];
/** Test files do not end up in the build. */
const IGNORED = /\.test\.tsx?$/;

function filesUnder(relative: string): string[] {
  const absolute = path.join(ROOT, relative);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [relative];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !IGNORED.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

export function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesUnder).sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** The hash the current build was made from ('' when there is no build). */
export function builtHash(): string {
  return existsSync(path.join(DIST, 'index.html')) && existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
}

/** Writes the stamp once a build has finished writing. */
export function sourceStamp(): Plugin {
  return {
    name: 'panel247-source-stamp',
    apply: 'build',
    closeBundle() {
      // Called after a failed build too: then there is no build to stamp, and writing would hide
      // the build's own error behind an ENOENT.
      if (existsSync(path.join(DIST, 'index.html'))) writeFileSync(STAMP, `${sourceHash()}\n`);
    },
  };
}
