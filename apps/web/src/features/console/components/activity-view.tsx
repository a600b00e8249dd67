import { Badge, Group, Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { ListBody } from '../../../components/list-body';
import { ListCard, ListPage } from '../../../components/list-page';
import { ListTable } from '../../../components/list-table';
import { useActivityWords } from '../../../lib/activity-words';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useServerPage } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { ACTIVITY_PAGE_SIZE, type ConsoleActivityEntry, useConsoleActivity } from '../api/list-activity';
import { useConsoleTitle } from '../lib/use-console-title';

const NO_RESET: readonly unknown[] = [];

/**
 * Every account's activity, newest first, 50 a page, worded as the customers' own log words it;
 * the filter looks in the account, user, area, action and target (on the server).
 */
export function ActivityView() {
  const { t } = useTranslation();
  useConsoleTitle(t('console.nav.activity'));
  const words = useActivityWords();
  const { text, setText, filter, page, setPage } = useServerPage(NO_RESET);
  const log = useConsoleActivity({ page, filter });
  useErrorToast(log.error);
  const entries = log.data?.entries ?? [];

  const columns: DataTableColumn<ConsoleActivityEntry>[] = [
    { accessor: 'at', title: t('activity.when'), noWrap: true, render: (entry) => words.when(entry.at) },
    {
      accessor: 'account',
      title: t('console.activity.account'),
      render: (entry) => (
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {entry.account}
        </Text>
      ),
    },
    {
      accessor: 'username',
      title: t('activity.who'),
      render: (entry) => (
        <Group gap={6} wrap="wrap">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {entry.username}
          </Text>
          {entry.via === 'api' || entry.via === 'smtp' ? (
            <Badge size="xs" variant="light" title={t(`activity.via_${entry.via}_hint`)}>
              {t(`activity.via_${entry.via}`)}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    {
      accessor: 'action',
      title: t('activity.what'),
      cellsStyle: () => ({ minWidth: 180 }),
      render: (entry) => (
        <Stack gap={2}>
          <Group gap={6} wrap="wrap">
            <Badge size="sm" variant="outline" style={{ textTransform: 'none' }}>
              {words.area(entry.area)}
            </Badge>
            <Text size="sm">{words.action(entry.action)}</Text>
          </Group>
          {entry.reference || entry.target ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {[entry.reference, entry.target].filter(Boolean).join(' · ')}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    { accessor: 'ip', title: t('activity.ip'), noWrap: true },
  ];

  const emptyText = log.isError
    ? t('console.activity.load_error')
    : filter
      ? t('lists.no_results')
      : t('console.activity.empty');

  return (
    <ListPage testId="console-activity-view" title={t('console.activity.title')}>
      <ListCard title={t('console.activity.list_title')}>
        <ListBody
          testId="console-activity"
          filter={{
            label: t('lists.filter'),
            placeholder: t('console.activity.filter_placeholder'),
            value: text,
            onChange: setText,
          }}
          pagedOnServer
          loading={log.isPending}
          skeleton={{ rows: 5, height: 32 }}
          pagination={{ page, pageSize: ACTIVITY_PAGE_SIZE, total: log.data?.total ?? 0, onChange: setPage }}
        >
          <ListTable
            testId="console-activity"
            busy={log.isFetching}
            records={entries}
            columns={columns}
            emptyText={emptyText}
            verticalAlign="top"
            rowAttributes={(entry) => ({
              'data-account': entry.account,
              'data-area': entry.area,
              'data-action': entry.action,
            })}
          />
        </ListBody>
      </ListCard>
    </ListPage>
  );
}
