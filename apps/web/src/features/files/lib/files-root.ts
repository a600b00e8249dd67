import type { Params } from '../../../lib/api-client';

/**
 * Which tree the file manager shows: the service's home, or the folder of one FTP account (`ftp`,
 * when it opens as that account's WebFTP). Every call names it the same way.
 */
export interface FilesRoot {
  serviceId: number;
  ftp: number | null;
}

/** The root's part of a call's parameters (`ftp` only when there is one). */
export function rootParams(root: FilesRoot): Params {
  return root.ftp === null ? {} : { ftp: root.ftp };
}

/** Every file query of a root starts with this key; a change refreshes them all. */
export const filesQueryKey = (root: FilesRoot) => ['files', root.serviceId, root.ftp ?? 0] as const;
