import { isFilePath } from '@panel247/contract/files';

/** `name` inside `folder` ('' being the root). */
export function joinPath(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
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
 * The folder named by the address (`?path=`): a leading or trailing `/` is forgiven, anything the
 * server would refuse (`..`, empty names) falls back to the root.
 */
export function folderFromQuery(value: string | null): string {
  const path = (value ?? '').replace(/^\/+|\/+$/g, '');
  return isFilePath(path) ? path : '';
}

/** An FTP account id from the address (`?ftp=`), or null for the service's home. */
export function ftpFromQuery(value: string | null): number | null {
  const id = Number(value);
  return value !== null && Number.isSafeInteger(id) && id > 0 && String(id) === value ? id : null;
}
