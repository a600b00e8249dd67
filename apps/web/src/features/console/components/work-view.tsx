import { Badge, Button, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ListCard, ListPage } from '../../../components/list-page';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { useActivityWords } from '../../../lib/activity-words';
import { ApiError } from '../../../lib/api-client';
import { formatEpoch } from '../../../lib/dates';
import { notifyError, notifyErrorText, notifySuccess } from '../../../lib/notify';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useTranslation } from '../../../lib/use-translation';
import { type ConsoleJob, useWork, type WaitingChange, WORK_FILTERS, type WorkFilter } from '../api/list-work';
import { useRetryJob } from '../api/retry-job';
import { useConsoleTitle } from '../lib/use-console-title';

const STATE_COLORS: Record<ConsoleJob['state'], string> = {
  created: 'gray',
  retry: 'orange',
  active: 'blue',
  completed: 'green',
  cancelled: 'gray',
  failed: 'red',
};

/** A job the staff may run again now: a failed one, or one waiting for its next try. */
const retriable = (job: ConsoleJob) => job.state === 'failed' || job.state === 'retry';

/** A table's error or empty text: one line, wrapped anywhere (a daemon's reason can be one long word). */
function ErrorText({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }} data-testid="work-error">
      {error}
    </Text>
  );
}

function JobsTable({ jobs, busy, emptyText }: { jobs: ConsoleJob[]; busy: boolean; emptyText: string }) {
  const { t, i18n } = useTranslation();
  const retry = useRetryJob();
  const run = async (job: ConsoleJob) => {
    try {
      await retry.mutateAsync(job.id);
      notifySuccess([t('console.work.retried', { kind: job.kind })]);
    } catch (error) {
      // not failed any more (done, or retried by someone else): the list is read again anyway
      if (error instanceof ApiError && error.status === 404) notifyErrorText('console.work.gone');
      else notifyError(error);
    }
  };
  const columns: DataTableColumn<ConsoleJob>[] = [
    {
      accessor: 'kind',
      title: t('console.work.kind'),
      render: (job) => (
        <Stack gap={2}>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {job.kind}
          </Text>
          {job.key ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {job.key}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'state',
      title: t('console.work.state'),
      render: (job) => (
        <Stack gap={2} align="flex-start">
          <Badge variant="light" color={STATE_COLORS[job.state]} data-testid="job-state">
            {t(`console.work.state_${job.state}`)}
          </Badge>
          <ErrorText error={job.error} />
        </Stack>
      ),
    },
    { accessor: 'retries', title: t('console.work.retries') },
    {
      accessor: 'createdAt',
      title: t('console.work.created'),
      render: (job) => formatEpoch(job.createdAt, i18n.language, 'second'),
    },
    {
      accessor: 'runAfter',
      title: t('console.work.run_after'),
      render: (job) => formatEpoch(job.runAfter, i18n.language, 'second'),
    },
    {
      accessor: 'actions',
      title: t('lists.actions'),
      textAlign: 'right',
      render: (job) =>
        retriable(job) ? (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconRefresh size={14} aria-hidden />}
            loading={retry.isPending && retry.variables === job.id}
            aria-label={t('console.work.retry_of', { kind: job.kind })}
            onClick={() => void run(job)}
            data-testid="job-retry"
          >
            {t('console.work.retry')}
          </Button>
        ) : null,
    },
  ];
  return (
    <ListTable
      testId="console-jobs"
      busy={busy}
      records={jobs}
      columns={columns}
      emptyText={emptyText}
      verticalAlign="top"
      rowAttributes={(job) => ({ 'data-id': job.id, 'data-state': job.state })}
    />
  );
}

type ChangeRow = WaitingChange & { id: string };

function ChangesTable({ changes, busy, emptyText }: { changes: WaitingChange[]; busy: boolean; emptyText: string }) {
  const { t, i18n } = useTranslation();
  const words = useActivityWords();
  const columns: DataTableColumn<ChangeRow>[] = [
    {
      accessor: 'domain',
      title: t('console.work.domain'),
      render: (change) => (
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {change.domain}
        </Text>
      ),
    },
    { accessor: 'area', title: t('console.work.area'), render: (change) => words.area(change.area) },
    { accessor: 'pending', title: t('console.work.pending') },
    {
      accessor: 'since',
      title: t('console.work.since'),
      render: (change) => formatEpoch(change.since, i18n.language, 'second'),
    },
    {
      accessor: 'lastError',
      title: t('console.work.last_error'),
      render: (change) => <ErrorText error={change.lastError} />,
    },
  ];
  return (
    <ListTable
      testId="console-changes"
      busy={busy}
      records={changes.map((change) => ({ ...change, id: `${change.area}:${change.domain}` }))}
      columns={columns}
      emptyText={emptyText}
      verticalAlign="top"
      rowAttributes={(change) => ({ 'data-domain': change.domain, 'data-area': change.area })}
    />
  );
}

/**
 * The work log as the staff watch it: its open, failed or retrying jobs (a failed one run again
 * from here), and the services whose changes have not reached their server yet.
 */
export function WorkView() {
  const { t } = useTranslation();
  useConsoleTitle(t('console.nav.work'));
  const [state, setState] = useState<WorkFilter>('open');
  const work = useWork(state);
  useErrorToast(work.error);
  const loadError = work.isError ? t('console.work.load_error') : null;
  return (
    <ListPage testId="console-work-view" title={t('console.work.title')}>
      <ListCard title={t('console.work.jobs_title')}>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="console-work-filter-label">
            {t('console.work.show')}
          </Text>
          <SegmentedControl
            role="radiogroup"
            aria-labelledby="console-work-filter-label"
            value={state}
            onChange={(value) => setState(WORK_FILTERS.find((one) => one === value) ?? 'open')}
            data={WORK_FILTERS.map((value) => ({ value, label: t(`console.work.filter_${value}`) }))}
            data-testid="console-work-filter"
            style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
          />
        </Stack>
        {work.isPending ? (
          <ListSkeleton rows={3} height={32} testId="console-jobs-skeleton" />
        ) : (
          <JobsTable
            jobs={work.data?.jobs ?? []}
            busy={work.isFetching}
            emptyText={loadError ?? t(`console.work.jobs_empty_${state}`)}
          />
        )}
      </ListCard>
      <ListCard
        title={t('console.work.changes_title')}
        subtitle={
          <Text size="sm" c="dimmed">
            {t('console.work.changes_hint')}
          </Text>
        }
      >
        {work.isPending ? (
          <ListSkeleton rows={2} height={32} testId="console-changes-skeleton" />
        ) : (
          <ChangesTable
            changes={work.data?.changes ?? []}
            busy={work.isFetching}
            emptyText={loadError ?? t('console.work.changes_empty')}
          />
        )}
      </ListCard>
    </ListPage>
  );
}
