import type { FileEntry } from '@panel247/contract/files';
import { FILES_API } from '@panel247/contract/routes';
import { encodeParams, getBasePath } from '../../../lib/api-client';
import { type FilesRoot, rootParams } from '../lib/files-root';

/**
 * The address that downloads an entry: a file as it is, a folder as a .zip made on the fly. A
 * plain link (the server lets these GETs through without the API's header), so the browser
 * writes the file to disk as it arrives instead of holding it in memory.
 */
export function downloadLink(root: FilesRoot, path: string, type: FileEntry['type']): string {
  const call = type === 'folder' ? FILES_API.zip : FILES_API.download;
  return `${getBasePath()}${call(root.serviceId)}?${encodeParams({ path, ...rootParams(root) })}`;
}
