import type { EmptyData } from '@panel247/contract/envelope';
import { FILES_API } from '@panel247/contract/routes';
import { apiCall } from '../../../lib/api-client';
import { type FilesRoot, rootParams } from '../lib/files-root';
import { useFilesChange } from './use-files-change';

/** Writes the editor's text over the file. */
export async function saveFileText(root: FilesRoot, path: string, content: string): Promise<string[]> {
  const answer = await apiCall<EmptyData>(
    FILES_API.save(root.serviceId),
    { ...rootParams(root), path, content },
    { method: 'POST' },
  );
  return answer.system.info;
}

export function useSaveFileText(root: FilesRoot) {
  return useFilesChange(root, ({ path, content }: { path: string; content: string }) =>
    saveFileText(root, path, content),
  );
}
