import type { BackupsListData } from '@panel247/contract/backups';
import { BACKUPS_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../../../lib/api-query';

export const backupsQueryKey = (serviceId: number) => ['backups', serviceId] as const;

/**
 * The service's snapshots (newest first), their usage against the plan, and a job still running:
 * the view's first call, which its hook, the boot's prefetch and the server's first render share.
 */
export function backupsListQuery(serviceId: number) {
  return apiGetQuery<BackupsListData>(backupsQueryKey(serviceId), { path: BACKUPS_API.list(serviceId) });
}

export function useBackupsList(serviceId: number) {
  return useQuery(backupsListQuery(serviceId));
}
