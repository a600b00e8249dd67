import type { FilesListData } from '@panel247/contract/files';
import { FILES_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../../../lib/api-query';
import { type FilesRoot, filesQueryKey, rootParams } from '../lib/files-root';

export const filesListQueryKey = (root: FilesRoot, path: string) => [...filesQueryKey(root), 'list', path] as const;

/**
 * One folder (relative to the root): its entries, folders first, and whether it may be changed.
 * The folder the address names is the view's first call, which its hook, the boot's prefetch and
 * the server's first render share.
 */
export function filesListQuery(root: FilesRoot, path: string) {
  return apiGetQuery<FilesListData>(filesListQueryKey(root, path), {
    path: FILES_API.list(root.serviceId),
    params: { ...rootParams(root), path },
  });
}

export function useFilesList(root: FilesRoot, path: string) {
  return useQuery({
    ...filesListQuery(root, path),
    // the folder left stays drawn (marked busy) until the next one answers: no flash of skeleton
    placeholderData: keepPreviousData,
  });
}
