import path from 'node:path';

/**
 * The repository's root, where the panel's own files are found (deploy/, the web app's build,
 * the assets). One place for it: the sources run from apps/server/src/ (tsx) and the production
 * bundles from apps/server/dist/ (scripts/build-server.ts), both three levels below the root,
 * and a file's own location no longer says where the others are once it is bundled.
 */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** A file or folder of the repository. */
export function repoPath(...parts: string[]): string {
  return path.join(REPO_ROOT, ...parts);
}
