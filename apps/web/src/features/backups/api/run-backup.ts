import type { BackupJobData } from '@panel247/contract/backups';
import { BACKUPS_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** Starts a backup of the service now; the server answers at once with the job that runs it. */
export async function runBackup(serviceId: number) {
  const { data, system } = await apiCall<BackupJobData>(BACKUPS_API.run(serviceId), undefined, { method: 'POST' });
  return { job: data.job, info: system.info };
}

export function useRunBackup(serviceId: number) {
  return useMutation({ mutationFn: () => runBackup(serviceId) });
}
