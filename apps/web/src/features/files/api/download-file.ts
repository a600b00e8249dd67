import { FILES_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { notifyError } from '../../../lib/notify';
import { saveApiFile } from '../../../lib/save-file';
import { type FilesRoot, rootParams } from '../lib/files-root';

/**
 * Has the browser save the file at `path`. The server asks every API call for the CSRF header,
 * which a plain link cannot send, so the file is fetched and saved from memory.
 */
export function downloadFile(root: FilesRoot, path: string): Promise<string> {
  return saveApiFile(FILES_API.download(root.serviceId), { ...rootParams(root), path });
}

export function useDownloadFile(root: FilesRoot) {
  return useMutation({ mutationFn: (path: string) => downloadFile(root, path), onError: notifyError });
}
