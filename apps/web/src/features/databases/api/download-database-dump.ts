import { DDBB_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { saveApiFile } from '../../../lib/save-file';

/** The database as an SQL dump, saved by the browser under the server's file name. */
export function downloadDatabaseDump(serviceId: number, databaseId: number): Promise<string> {
  return saveApiFile(DDBB_API.dump(serviceId, databaseId));
}

export function useDownloadDatabaseDump(serviceId: number) {
  return useMutation({ mutationFn: (databaseId: number) => downloadDatabaseDump(serviceId, databaseId) });
}
