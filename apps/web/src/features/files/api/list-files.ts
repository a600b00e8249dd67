import type { FilesListData } from '@panel247/contract/files';
import { FILES_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type FilesRoot, filesQueryKey, rootParams } from '../lib/files-root';

export const filesListQueryKey = (root: FilesRoot, path: string) => [...filesQueryKey(root), 'list', path] as const;

/** One folder (relative to the root): its entries, folders first, and whether it may be changed. */
export function listFiles(root: FilesRoot, path: string, signal?: AbortSignal): Promise<FilesListData> {
  return api<FilesListData>(FILES_API.list(root.serviceId), { ...rootParams(root), path }, { method: 'GET', signal });
}

export function useFilesList(root: FilesRoot, path: string) {
  return useQuery({
    queryKey: filesListQueryKey(root, path),
    queryFn: ({ signal }) => listFiles(root, path, signal),
    // the folder left stays drawn (marked busy) until the next one answers: no flash of skeleton
    placeholderData: keepPreviousData,
  });
}
