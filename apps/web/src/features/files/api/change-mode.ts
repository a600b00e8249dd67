import type { EmptyData } from '@panel247/contract/envelope';
import { FILES_API } from '@panel247/contract/routes';
import { apiCall } from '../../../lib/api-client';
import { type FilesRoot, rootParams } from '../lib/files-root';
import { useFilesChange } from './use-files-change';

/** Sets the permission bits of the entry at `path` (e.g. `644`). */
export async function changeMode(root: FilesRoot, path: string, mode: string): Promise<string[]> {
  const answer = await apiCall<EmptyData>(
    FILES_API.mode(root.serviceId),
    { ...rootParams(root), path, mode },
    { method: 'POST' },
  );
  return answer.system.info;
}

export function useChangeMode(root: FilesRoot) {
  return useFilesChange(root, ({ path, mode }: { path: string; mode: string }) => changeMode(root, path, mode));
}
