import type { FilesReadData } from '@panel247/contract/files';
import { FILES_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type FilesRoot, filesQueryKey, rootParams } from '../lib/files-root';

/** The text of a file, for the editor. */
export function readFile(root: FilesRoot, path: string, signal?: AbortSignal): Promise<FilesReadData> {
  return api<FilesReadData>(FILES_API.read(root.serviceId), { ...rootParams(root), path }, { method: 'GET', signal });
}

/** Read afresh at each opening (never an old copy from the cache), and not kept after. */
export function useFileText(root: FilesRoot, path: string | null) {
  return useQuery({
    queryKey: [...filesQueryKey(root), 'read', path ?? ''] as const,
    queryFn: ({ signal }) => readFile(root, path ?? '', signal),
    enabled: path !== null,
    staleTime: 0,
    gcTime: 0,
  });
}
