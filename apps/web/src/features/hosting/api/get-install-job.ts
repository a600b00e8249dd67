import type { InstallAppData, InstallJob } from '@panel247/contract/installer';
import { INSTALLER_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** How often a running install is asked about. */
export const JOB_POLL_MS = 1000;

export const installJobQueryKey = (jobId: string) => ['installer', 'job', jobId] as const;

export async function getInstallJob(jobId: string, signal?: AbortSignal): Promise<InstallJob> {
  return (await api<InstallAppData>(INSTALLER_API.job(jobId), undefined, { method: 'GET', signal })).job;
}

export function jobFinished(job: InstallJob | undefined): boolean {
  return job?.status === 'done' || job?.status === 'failed';
}

/**
 * Follows a job from the state the install call answered with, asking again every second until
 * it is done or failed. Nothing is kept once the installer closes.
 */
export function useInstallJob(initial: InstallJob | null) {
  return useQuery({
    queryKey: installJobQueryKey(initial?.id ?? ''),
    queryFn: ({ signal }) => getInstallJob(initial?.id ?? '', signal),
    enabled: initial !== null && !jobFinished(initial),
    initialData: initial ?? undefined,
    refetchInterval: (query) => (jobFinished(query.state.data) ? false : JOB_POLL_MS),
    refetchIntervalInBackground: true,
    staleTime: 0,
    gcTime: 0,
    retry: 2,
  });
}
