import { type MutationFunction, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FilesRoot, filesQueryKey } from '../lib/files-root';

/**
 * A change to the files of a root (a new folder, a rename, a delete, a save): once it is done,
 * every listing of that root is fetched again, since the server alone knows sizes and dates.
 */
export function useFilesChange<T, V>(root: FilesRoot, mutationFn: MutationFunction<T, V>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesQueryKey(root) }),
  });
}
