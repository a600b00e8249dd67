import type { EmptyData } from '@panel247/contract/envelope';
import { FILES_API } from '@panel247/contract/routes';
import { apiCall } from '../../../lib/api-client';
import { type FilesRoot, rootParams } from '../lib/files-root';
import { useFilesChange } from './use-files-change';

/** Creates folder `name` inside `folder`; returns the server's info messages. */
export async function createFolder(root: FilesRoot, folder: string, name: string): Promise<string[]> {
  const answer = await apiCall<EmptyData>(
    FILES_API.createFolder(root.serviceId),
    { ...rootParams(root), path: folder, name },
    { method: 'POST' },
  );
  return answer.system.info;
}

export function useCreateFolder(root: FilesRoot) {
  return useFilesChange(root, ({ folder, name }: { folder: string; name: string }) => createFolder(root, folder, name));
}
