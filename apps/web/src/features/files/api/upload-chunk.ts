import type { FilesUploadData } from '@panel247/contract/files';
import { FILES_API } from '@panel247/contract/routes';
import { api } from '../../../lib/api-client';
import { type FilesRoot, rootParams } from '../lib/files-root';

/** Where one upload goes: file `name` in `folder` of the root. */
export interface UploadDestination {
  root: FilesRoot;
  folder: string;
  name: string;
}

function destinationParams({ root, folder, name }: UploadDestination) {
  return { path: folder, name, ...rootParams(root) };
}

/**
 * Sends the bytes of one chunk, to be written at `offset` of a file of `size` bytes; the answer
 * says how much the server now holds. `onSent` hears the chunk's bytes sent so far.
 */
export function uploadChunk(
  destination: UploadDestination,
  chunk: { bytes: Blob; offset: number; size: number },
  signal?: AbortSignal,
  onSent?: (bytes: number) => void,
): Promise<FilesUploadData> {
  return api<FilesUploadData>(
    FILES_API.upload(destination.root.serviceId),
    { ...destinationParams(destination), offset: chunk.offset, size: chunk.size },
    { method: 'PUT', body: chunk.bytes, signal, onSent },
  );
}

/** How much of an upload the server holds, after a chunk failed: the next one starts there. */
export function getUploadStatus(destination: UploadDestination, signal?: AbortSignal): Promise<FilesUploadData> {
  return api<FilesUploadData>(FILES_API.uploadStatus(destination.root.serviceId), destinationParams(destination), {
    method: 'GET',
    signal,
  });
}
