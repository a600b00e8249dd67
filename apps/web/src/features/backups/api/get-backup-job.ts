import type { BackupJob, BackupJobData } from '@panel247/contract/backups';
import { BACKUPS_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { jobEnded } from '../lib/backup-job';

/** How often a running backup or restore is asked about. */
const JOB_POLL_MS = 1000;

export async function getBackupJob(serviceId: number, jobId: string, signal?: AbortSignal): Promise<BackupJob> {
  return (await api<BackupJobData>(BACKUPS_API.job(serviceId, jobId), undefined, { method: 'GET', signal })).job;
}

/**
 * Follows a job from the state last known (the start call's answer, or the list's running job),
 * asking again every second until it is done or failed.
 */
export function useBackupJob(serviceId: number, initial: BackupJob | null) {
  return useQuery({
    queryKey: ['backups', serviceId, 'job', initial?.id ?? ''] as const,
    queryFn: ({ signal }) => getBackupJob(serviceId, initial?.id ?? '', signal),
    enabled: initial !== null && !jobEnded(initial),
    initialData: initial ?? undefined,
    refetchInterval: (query) => (jobEnded(query.state.data) ? false : JOB_POLL_MS),
    refetchIntervalInBackground: true,
    staleTime: 0,
    gcTime: 0,
    retry: 2,
  });
}
