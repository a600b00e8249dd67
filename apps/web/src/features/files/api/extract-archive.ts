import type { FilesExtractData } from '@panel247/contract/files';
import { FILES_API } from '@panel247/contract/routes';
import { apiCall } from '../../../lib/api-client';
import { type FilesRoot, rootParams } from '../lib/files-root';
import { useFilesChange } from './use-files-change';

/** Extracts the archive at `path` into a new folder beside it; returns that folder and the info. */
export async function extractArchive(root: FilesRoot, path: string) {
  const answer = await apiCall<FilesExtractData>(
    FILES_API.extract(root.serviceId),
    { ...rootParams(root), path },
    { method: 'POST' },
  );
  return { folder: answer.data.path, info: answer.system.info };
}

export function useExtractArchive(root: FilesRoot) {
  return useFilesChange(root, (path: string) => extractArchive(root, path));
}
