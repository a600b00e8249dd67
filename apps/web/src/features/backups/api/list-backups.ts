import type { BackupsListData } from '@panel247/contract/backups';
import { BACKUPS_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const backupsQueryKey = (serviceId: number) => ['backups', serviceId] as const;

/** The service's snapshots (newest first), their usage against the plan, and a job still running. */
export function listBackups(serviceId: number, signal?: AbortSignal): Promise<BackupsListData> {
  return api<BackupsListData>(BACKUPS_API.list(serviceId), undefined, { method: 'GET', signal });
}

export function useBackupsList(serviceId: number) {
  return useQuery({
    queryKey: backupsQueryKey(serviceId),
    queryFn: ({ signal }) => listBackups(serviceId, signal),
  });
}
