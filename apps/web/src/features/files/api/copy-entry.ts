import type { EmptyData } from '@panel247/contract/envelope';
import { FILES_API } from '@panel247/contract/routes';
import { apiCall } from '../../../lib/api-client';
import { type FilesRoot, rootParams } from '../lib/files-root';
import { useFilesChange } from './use-files-change';

export type CopyHow = 'copy' | 'move';

/** Copies or moves the entry at `path` into the folder `to` ('' the root), keeping its name. */
export async function copyEntry(root: FilesRoot, how: CopyHow, path: string, to: string): Promise<string[]> {
  const call = how === 'copy' ? FILES_API.copy : FILES_API.move;
  const answer = await apiCall<EmptyData>(call(root.serviceId), { ...rootParams(root), path, to }, { method: 'POST' });
  return answer.system.info;
}

export function useCopyEntry(root: FilesRoot) {
  return useFilesChange(root, ({ how, path, to }: { how: CopyHow; path: string; to: string }) =>
    copyEntry(root, how, path, to),
  );
}
