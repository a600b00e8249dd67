import { Badge, Group } from '@mantine/core';
import type { BackupSnapshot } from '@panel247/contract/backups';
import { IconRestore } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { formatBytes } from '../../../lib/format-bytes';
import { useTranslation } from '../../../lib/use-translation';
import { holdBadges } from '../lib/backup-holds';
import { snapshotDate } from '../lib/snapshot-date';

/**
 * The snapshots, newest first: when, how big the service was, what each holds and its restore
 * button (for users who may restore; it waits while another job runs).
 */
export function SnapshotsTable({
  snapshots,
  busy,
  emptyText,
  restore,
}: {
  snapshots: BackupSnapshot[];
  busy: boolean;
  emptyText: string;
  /** null: the user may not restore. */
  restore: { disabled: boolean; onRestore: (snapshot: BackupSnapshot) => void } | null;
}) {
  const { t, i18n } = useTranslation();
  const columns: DataTableColumn<BackupSnapshot>[] = [
    {
      accessor: 'time',
      title: t('backups.date'),
      render: (snapshot) => (
        <time dateTime={new Date(snapshot.time * 1000).toISOString()} data-testid="backups-date">
          {snapshotDate(snapshot.time, i18n.language)}
        </time>
      ),
    },
    {
      accessor: 'size',
      title: t('backups.size'),
      render: (snapshot) => formatBytes(snapshot.size, i18n.language),
    },
    {
      accessor: 'holds',
      title: t('backups.holds_title'),
      render: (snapshot) => (
        <Group gap={4} data-testid="backups-holds">
          {holdBadges(snapshot.holds).map((badge) => (
            <Badge key={badge.id} variant="light" size="sm" tt="none" data-hold={badge.id}>
              {t(badge.key, badge.values)}
            </Badge>
          ))}
        </Group>
      ),
    },
  ];
  if (restore) {
    columns.push(
      rowActionsColumn(t('backups.actions'), (snapshot) => [
        {
          label: t('backups.restore_item', { date: snapshotDate(snapshot.time, i18n.language) }),
          testId: 'backups-restore',
          icon: <IconRestore size={16} aria-hidden />,
          disabled: restore.disabled,
          onClick: () => restore.onRestore(snapshot),
        },
      ]),
    );
  }
  return (
    <ListTable
      testId="backups-list"
      busy={busy}
      records={snapshots}
      columns={columns}
      emptyText={emptyText}
      rowAttributes={(snapshot) => ({ 'data-name': snapshot.id })}
    />
  );
}
