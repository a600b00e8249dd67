import type { BackupJob } from '@panel247/contract/backups';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { notifyErrorMessage, notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { backupsQueryKey } from '../api/list-backups';
import { jobEnded } from './backup-job';

/**
 * Once the followed job ends: its toast (success, or the server's reason in the user's language)
 * and the list fetched again (a new snapshot, the usage, no job running). Each job is told once,
 * however often the page renders it ended.
 */
export function useJobOutcome(serviceId: number, job: BackupJob | null) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const told = useRef(new Set<string>());
  useEffect(() => {
    if (!job || !jobEnded(job) || told.current.has(job.id)) return;
    told.current.add(job.id);
    if (job.status === 'done') {
      notifySuccess([job.kind === 'backup' ? t('backups.job.backup_done') : t('backups.job.restore_done')]);
    } else {
      notifyErrorMessage(job.error || t('backups.job.failed'));
    }
    void queryClient.invalidateQueries({ queryKey: backupsQueryKey(serviceId) });
  }, [job, serviceId, queryClient, t]);
}
