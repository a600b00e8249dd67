import type { EmptyData } from '@panel247/contract/envelope';
import { FILES_API } from '@panel247/contract/routes';
import { apiCall } from '../../../lib/api-client';
import { type FilesRoot, rootParams } from '../lib/files-root';
import { useFilesChange } from './use-files-change';

/** Gives the file or folder at `path` the new `name` (in the same folder). */
export async function renameFile(root: FilesRoot, path: string, name: string): Promise<string[]> {
  const answer = await apiCall<EmptyData>(
    FILES_API.rename(root.serviceId),
    { ...rootParams(root), path, name },
    { method: 'POST' },
  );
  return answer.system.info;
}

export function useRenameFile(root: FilesRoot) {
  return useFilesChange(root, ({ path, name }: { path: string; name: string }) => renameFile(root, path, name));
}
