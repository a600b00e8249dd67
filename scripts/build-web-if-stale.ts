/**
 * Builds the web app only when its sources changed since the last build (see
 * apps/web/source-stamp.ts): `npm start` used to rebuild it every time (about a minute on 2 cores)
 * before the server could answer.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { builtHash, sourceHash } from '../apps/web/source-stamp.ts';

if (builtHash() !== sourceHash()) {
  console.log('Building the web app (its sources changed since the last build)…');
  // warnings and errors only: the chunk table is for whoever works on the bundle (npm run build)
  execFileSync('npm', ['run', 'build', '-w', 'apps/web', '--', '--logLevel', 'warn'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
