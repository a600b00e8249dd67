import type { EmptyData } from '@panel247/contract/envelope';
import { FILES_API } from '@panel247/contract/routes';
import { apiCall } from '../../../lib/api-client';
import { type FilesRoot, rootParams } from '../lib/files-root';
import { useFilesChange } from './use-files-change';

/** Deletes a file, or a folder with everything inside it. */
export async function deleteFile(root: FilesRoot, path: string): Promise<string[]> {
  const answer = await apiCall<EmptyData>(
    FILES_API.remove(root.serviceId),
    { ...rootParams(root), path },
    { method: 'POST' },
  );
  return answer.system.info;
}

export function useDeleteFile(root: FilesRoot) {
  return useFilesChange(root, (path: string) => deleteFile(root, path));
}
