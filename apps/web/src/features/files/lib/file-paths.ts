import { isFilePath } from '@panel247/contract/file-rules';
import { parseId } from '../../../lib/resource-paths';

/** `name` inside `folder` ('' being the root). */
export function joinPath(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

/** The last name of a path: the file or folder itself. */
export function baseName(path: string | undefined): string {
  return path?.split('/').pop() ?? '';
}

/** One step of the trail to a folder: its name and its path from the root. */
export interface PathCrumb {
  name: string;
  path: string;
}

/** The folders from the root down to `path` (the root itself not included). */
export function pathCrumbs(path: string): PathCrumb[] {
  if (path === '') return [];
  const names = path.split('/');
  return names.map((name, index) => ({ name, path: names.slice(0, index + 1).join('/') }));
}

/**
 * A folder as typed or as in an address: a leading or trailing `/` is forgiven ('/' is the
 * root); null when the server would refuse it (`..`, empty names, control characters).
 */
export function folderFromInput(value: string): string | null {
  const path = value.replace(/^\/+|\/+$/g, '');
  return isFilePath(path) ? path : null;
}

/** The folder named by the address (`?path=`); one the server would refuse falls back to the root. */
export function folderFromQuery(value: string | null): string {
  return folderFromInput(value ?? '') ?? '';
}

/** An FTP account id from the address (`?ftp=`), or null for the service's home. */
export function ftpFromQuery(value: string | null): number | null {
  return parseId(value);
}
