/**
 * The file manager's path rules and sizes, zod-free: the confined file worker, which starts
 * for every file operation, loads them without the schemas.
 */

export const FILE_PATH_MAX = 1024;
export const FILE_NAME_MAX = 255;
/** The largest file the editor opens (UTF-8 text). */
export const FILE_EDIT_MAX_BYTES = 1024 * 1024;
/** Uploads travel in chunks of at most this size; a broken upload resumes at the last chunk. */
export const UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;

/** No control characters; no `/` in a name; not `.` or `..`. */
const NAME_PATTERN = /^(?!\.{1,2}$)[^/\p{Cc}]+$/u;

export function isFileName(name: string): boolean {
  return NAME_PATTERN.test(name) && new TextEncoder().encode(name).length <= FILE_NAME_MAX;
}

/** '' or names joined by single `/`, none of them `.` or `..`, no leading or trailing `/`. */
export function isFilePath(path: string): boolean {
  return path === '' || (path.length <= FILE_PATH_MAX && path.split('/').every(isFileName));
}

/** Archives the file manager extracts: into a new folder beside them, named after them. */
export const EXTRACTABLE_PATTERN = /\.(zip|tar\.gz|tgz)$/i;
