import { Progress, Stack, Text } from '@mantine/core';
import type { BackupJob } from '@panel247/contract/backups';
import { useTranslation } from '../../../lib/use-translation';
import { jobStepKey } from '../lib/backup-job';

/**
 * A backup or restore that runs: its step in words, read out as it changes, and a bar that moves
 * (restic tells no percentage, so the bar says "working", not how far).
 */
export function BackupJobStatus({ job }: { job: BackupJob }) {
  const { t } = useTranslation();
  const title = job.kind === 'backup' ? t('backups.job.backup') : t('backups.job.restore');
  return (
    <Stack gap={6} data-testid="backups-job" data-step={job.step} data-status={job.status}>
      <Text size="sm" role="status" aria-live="polite" data-testid="backups-job-step">
        {t('backups.job.line', { title, step: t(jobStepKey(job)) })}
      </Text>
      <Progress value={100} striped animated size="md" aria-label={title} />
    </Stack>
  );
}
