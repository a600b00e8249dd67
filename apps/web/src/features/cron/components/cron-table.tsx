import { Badge, Code, Stack, Text } from '@mantine/core';
import type { CronTask } from '@panel247/contract/cron';
import { IconHistory, IconPencil, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { formatEpoch } from '../../../lib/dates';
import { useTranslation } from '../../../lib/use-translation';
import { CronRunOutcome } from './cron-run-outcome';

export interface CronRowActions {
  onEdit: (task: CronTask) => void;
  onRun: (task: CronTask) => void;
  onRuns: (task: CronTask) => void;
  onDelete: (task: CronTask) => void;
}

/** A moment of the list: the language's date and time, machine-readable too. */
function Moment({ seconds, testId }: { seconds: number; testId: string }) {
  const { i18n } = useTranslation();
  return (
    <time dateTime={new Date(seconds * 1000).toISOString()} data-testid={testId}>
      {formatEpoch(seconds, i18n.language)}
    </time>
  );
}

/**
 * The scheduled tasks: what runs, when (in words, with the next run), where its output goes,
 * whether it is on and how it last ended. Everyone who sees the tasks sees their runs; editing,
 * running, and deleting need the right to change them.
 */
export function CronTable({
  tasks,
  canWrite,
  emptyText,
  busy,
  runPending,
  actions,
}: {
  tasks: CronTask[];
  canWrite: boolean;
  emptyText: string;
  busy: boolean;
  /** The task whose Run now call is on its way. */
  runPending: number | null;
  actions: CronRowActions;
}) {
  const { t } = useTranslation();
  const columns: DataTableColumn<CronTask>[] = [
    {
      accessor: 'target',
      title: t('cron.target'),
      render: (task) => (
        <Stack gap={2}>
          <Text size="sm" ff="monospace" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="cron-target">
            {task.target}
          </Text>
          <Text size="xs" c="dimmed" data-testid="cron-kind">
            {t(`cron.kind.${task.kind}`)}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'schedule',
      title: t('cron.schedule'),
      render: (task) => (
        <Stack gap={2} align="flex-start">
          <Code>{task.schedule}</Code>
          <Text size="sm" data-testid="cron-description">
            {task.description}
          </Text>
          {task.enabled && task.nextRuns[0] !== undefined ? (
            <Text size="xs" c="dimmed">
              {t('cron.next_run')} <Moment seconds={task.nextRuns[0]} testId="cron-next-run" />
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'email',
      title: t('cron.email'),
      render: (task) =>
        task.email ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {task.email}
          </Text>
        ) : null,
    },
    {
      accessor: 'enabled',
      title: t('cron.state'),
      render: (task) => (
        <Badge variant="light" color={task.enabled ? 'green' : 'gray'} tt="none" data-testid="cron-enabled">
          {task.enabled ? t('cron.enabled') : t('cron.disabled')}
        </Badge>
      ),
    },
    {
      accessor: 'lastRun',
      title: t('cron.last_run'),
      render: (task) =>
        task.lastRun ? (
          <Stack gap={2} align="flex-start">
            <CronRunOutcome run={task.lastRun} />
            <Text size="xs" c="dimmed">
              <Moment seconds={task.lastRun.startedAt} testId="cron-last-run" />
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('cron.never_run')}
          </Text>
        ),
    },
    rowActionsColumn(t('cron.actions'), (task) => {
      const target = task.target;
      return [
        {
          label: t('cron.runs_item', { target }),
          testId: 'cron-runs',
          icon: <IconHistory size={16} aria-hidden />,
          onClick: () => actions.onRuns(task),
        },
        canWrite && {
          label: t('cron.run_item', { target }),
          testId: 'cron-run',
          icon: <IconPlayerPlay size={16} aria-hidden />,
          loading: runPending === task.id,
          // not started again on top of a run still going
          disabled: task.lastRun?.outcome === 'running',
          onClick: () => actions.onRun(task),
        },
        canWrite && {
          label: t('cron.edit_item', { target }),
          testId: 'cron-edit',
          icon: <IconPencil size={16} aria-hidden />,
          onClick: () => actions.onEdit(task),
        },
        canWrite && {
          label: t('cron.delete_item', { target }),
          testId: 'cron-delete',
          color: 'red',
          icon: <IconTrash size={16} aria-hidden />,
          onClick: () => actions.onDelete(task),
        },
      ];
    }),
  ];
  return (
    <ListTable
      testId="cron-list"
      busy={busy}
      records={tasks}
      columns={columns}
      emptyText={emptyText}
      verticalAlign="top"
      rowAttributes={(task) => ({ 'data-task': String(task.id) })}
    />
  );
}
