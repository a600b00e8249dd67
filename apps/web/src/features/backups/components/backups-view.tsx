import { Button } from '@mantine/core';
import type { BackupJob, BackupSnapshot } from '@panel247/contract/backups';
import { isActionable, LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconDatabaseExport } from '@tabler/icons-react';
import { useState } from 'react';
import { ListCard, ListPage } from '../../../components/list-page';
import { ListPagination } from '../../../components/list-pagination';
import { ListSkeleton } from '../../../components/list-skeleton';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useClientPage } from '../../../lib/use-client-page';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { useBackupJob } from '../api/get-backup-job';
import { useBackupsList } from '../api/list-backups';
import { useRunBackup } from '../api/run-backup';
import { jobActive } from '../lib/backup-job';
import { snapshotDate } from '../lib/snapshot-date';
import { useJobOutcome } from '../lib/use-job-outcome';
import { BackupJobStatus } from './backup-job-status';
import { BackupUsage } from './backup-usage';
import { RestoreModal } from './restore-modal';
import { SnapshotsTable } from './snapshots-table';

/**
 * The backups of a service: its snapshots and their usage against the plan; for users with the
 * backups right, a backup now and a restore, each a job the page follows until it ends.
 */
export function BackupsView({ set }: { set: PermissionSetData }) {
  const { t, i18n } = useTranslation();
  const serviceId = set.id;
  usePageTitle(`${t('menu.backups')} · ${set.reference}`);

  const list = useBackupsList(serviceId);
  useErrorToast(list.error);
  // the session's rights change live (permissions.changed); the list's flag is the server's word
  const writable = isActionable(set.permissions.service_backups) && (list.data?.writable ?? false);

  // the job this page started, else one already running when the list was read
  const [started, setStarted] = useState<BackupJob | null>(null);
  const known = started ?? list.data?.job ?? null;
  const followed = useBackupJob(serviceId, known);
  const job = followed.data ?? known;
  useJobOutcome(serviceId, job);

  const run = useRunBackup(serviceId);
  const busy = jobActive(job) || run.isPending;
  const startBackup = async () => {
    if (busy) return;
    try {
      const answer = await run.mutateAsync();
      notifySuccess(answer.info);
      setStarted(answer.job);
    } catch (error) {
      notifyError(error);
    }
  };

  const [restoring, setRestoring, closeRestore] = useDialog<BackupSnapshot | null>(null);
  const snapshots = list.data?.snapshots ?? [];
  const { page, setPage, pageRows } = useClientPage(snapshots, LIST_PAGE_SIZE);

  return (
    <ListPage testId="backups-view" title={set.reference}>
      <ListCard
        title={t('backups.list_title')}
        subtitle={list.data ? <BackupUsage usage={list.data.usage} limit={list.data.limit} /> : null}
        actions={
          writable ? (
            <Button
              leftSection={<IconDatabaseExport size={16} aria-hidden />}
              onClick={startBackup}
              // looks disabled but keeps the focus a disabled button would drop to the page
              data-disabled={busy}
              aria-disabled={busy}
              data-testid="backups-run"
            >
              {t('backups.run')}
            </Button>
          ) : null
        }
      >
        {job && jobActive(job) ? <BackupJobStatus job={job} /> : null}
        {list.isPending ? (
          <ListSkeleton testId="backups-skeleton" />
        ) : (
          <SnapshotsTable
            snapshots={pageRows}
            busy={list.isFetching}
            emptyText={list.isError ? t('backups.load_error') : t('backups.empty')}
            restore={writable ? { disabled: busy, onRestore: setRestoring } : null}
          />
        )}
        <ListPagination
          page={page}
          pageSize={LIST_PAGE_SIZE}
          total={snapshots.length}
          onChange={setPage}
          testId="backups-pagination"
        />
      </ListCard>

      <RestoreModal
        snapshot={restoring}
        date={restoring ? snapshotDate(restoring.time, i18n.language) : ''}
        serviceId={serviceId}
        allowed={writable}
        onStarted={setStarted}
        onClose={closeRestore}
      />
    </ListPage>
  );
}
