/**
 * Builds the web app only when its sources changed since the last build: `npm start` used to
 * rebuild it every time (about a minute on 2 cores) before the server could answer.
 *
 * "Changed" is a hash of every input's path and content (the web app, the contract it imports, the
 * lock file), kept in `apps/web/dist/.source-hash` after a build that succeeded. A hash, not file
 * times: a fresh clone or a checkout gives every file a new time without changing anything.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'apps/web/dist');
const STAMP = path.join(DIST, '.source-hash');
const INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/locale-plugin.ts',
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

function sourceHash(): string {
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

function main() {
  const current = sourceHash();
  const built =
    existsSync(path.join(DIST, 'index.html')) && existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
  if (built === current) return;
  console.log('Building the web app (its sources changed since the last build)…');
  // warnings and errors only: the chunk table is for whoever works on the bundle (npm run build)
  execFileSync('npm', ['run', 'build', '-w', 'apps/web', '--', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writeFileSync(STAMP, `${current}\n`);
}

main();
