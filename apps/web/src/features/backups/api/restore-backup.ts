import type { BackupJobData, BackupsRestoreParams } from '@panel247/contract/backups';
import { BACKUPS_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** The call's fields but the service id (which is in the URL); those left out take the server's default. */
export type RestoreRequest = Omit<BackupsRestoreParams, 'id'>;

/** Starts a restore of one part of a snapshot; the server answers at once with its job. */
export async function restoreBackup(serviceId: number, request: RestoreRequest) {
  const { data, system } = await apiCall<BackupJobData>(BACKUPS_API.restore(serviceId), request, { method: 'POST' });
  return { job: data.job, info: system.info };
}

export function useRestoreBackup(serviceId: number) {
  return useMutation({ mutationFn: (request: RestoreRequest) => restoreBackup(serviceId, request) });
}
