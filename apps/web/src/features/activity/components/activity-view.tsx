import { Badge, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { ACTIVITY_AREAS, type ActivityArea, type ActivityEntry } from '@panel247/contract/activity';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconFileTypeCsv } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ListCard, ListPage } from '../../../components/list-page';
import { ListPagination } from '../../../components/list-pagination';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { useActivityWords } from '../../../lib/activity-words';
import { notifyError } from '../../../lib/notify';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useStepBack } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { useExportActivity } from '../api/export-activity';
import { type ActivityFilters, openingFilters, useActivity } from '../api/list-activity';

const NO_FILTERS: Omit<ActivityFilters, 'resource'> = openingFilters();

/**
 * The activity log: the account's (`item` absent) or one item's, newest first and paged on the
 * server, with filters by user, area and day and a CSV export of what the filters keep.
 */
export function ActivityView({ item }: { item?: PermissionSetData }) {
  const { t } = useTranslation();
  const words = useActivityWords();
  usePageTitle(item ? `${t('menu.activity')} · ${item.reference}` : t('menu.activity'));
  const [chosen, setChosen] = useState(NO_FILTERS);
  const [page, setPage] = useState(1);
  const filters: ActivityFilters = { ...chosen, ...(item ? { resource: item.id } : {}) };
  const log = useActivity(filters, page);
  useErrorToast(log.error);
  const total = log.data?.total ?? 0;
  useStepBack(total, Boolean(log.data), page, setPage);
  const exporter = useExportActivity();

  const choose = (change: Partial<typeof chosen>) => {
    setChosen((current) => ({ ...current, ...change }));
    setPage(1);
  };

  const columns: DataTableColumn<ActivityEntry>[] = [
    { accessor: 'at', title: t('activity.when'), noWrap: true, render: (entry) => words.when(entry.at) },
    {
      accessor: 'user',
      title: t('activity.who'),
      render: (entry) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{entry.user}</Text>
          {entry.via !== 'web' && (
            <Badge size="xs" variant="light" title={t(`activity.via_${entry.via}_hint`)}>
              {t(`activity.via_${entry.via}`)}
            </Badge>
          )}
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
              {t(`activity.area.${entry.area}`)}
            </Badge>
            <Text size="sm">{words.action(entry.action)}</Text>
          </Group>
          {(entry.target || (!item && entry.resource)) && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {[item ? '' : entry.resource?.reference, entry.target].filter(Boolean).join(' · ')}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      accessor: 'changes',
      title: t('activity.changes'),
      cellsStyle: () => ({ minWidth: 200 }),
      render: (entry) =>
        entry.changes.length === 0 ? (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ) : (
          <Stack gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {entry.changes.map((change) => (
              <Text key={change.field} component="li" size="xs" style={{ overflowWrap: 'anywhere' }}>
                {words.change(change)}
              </Text>
            ))}
          </Stack>
        ),
    },
    { accessor: 'ip', title: t('activity.ip'), noWrap: true },
  ];

  const areaOptions = [
    { value: '', label: t('activity.all_areas') },
    ...ACTIVITY_AREAS.map((area: ActivityArea) => ({ value: area, label: t(`activity.area.${area}`) })),
  ];
  const userOptions = [
    { value: '', label: t('activity.all_users') },
    ...(log.data?.users ?? []).map((user) => ({ value: user, label: user })),
  ];

  return (
    <ListPage testId="activity-view" title={item ? item.reference : t('activity.title')}>
      <ListCard
        title={t('activity.title')}
        subtitle={t('activity.subtitle')}
        actions={
          <Button
            variant="light"
            leftSection={<IconFileTypeCsv size={16} aria-hidden />}
            loading={exporter.isPending}
            onClick={() => exporter.mutate(filters, { onError: notifyError })}
            data-testid="activity-export"
          >
            {t('activity.export')}
          </Button>
        }
      >
        <Group gap="sm" align="flex-end" wrap="wrap" data-testid="activity-filters">
          <Select
            label={t('activity.filter_user')}
            data={userOptions}
            value={chosen.user}
            onChange={(value) => choose({ user: value ?? '' })}
            allowDeselect={false}
            w={{ base: '100%', xs: 180 }}
            data-testid="activity-filter-user"
          />
          <Select
            label={t('activity.filter_area')}
            data={areaOptions}
            value={chosen.area}
            onChange={(value) => choose({ area: (value ?? '') as typeof chosen.area })}
            allowDeselect={false}
            w={{ base: '100%', xs: 180 }}
            data-testid="activity-filter-area"
          />
          <TextInput
            type="date"
            label={t('activity.filter_from')}
            value={chosen.from}
            max={chosen.to || undefined}
            onChange={(event) => choose({ from: event.currentTarget.value })}
            w={{ base: '100%', xs: 160 }}
            data-testid="activity-filter-from"
          />
          <TextInput
            type="date"
            label={t('activity.filter_to')}
            value={chosen.to}
            min={chosen.from || undefined}
            onChange={(event) => choose({ to: event.currentTarget.value })}
            w={{ base: '100%', xs: 160 }}
            data-testid="activity-filter-to"
          />
        </Group>
        {log.isPending ? (
          <ListSkeleton rows={5} height={32} testId="activity-skeleton" />
        ) : (
          <ListTable
            testId="activity-list"
            busy={log.isFetching}
            records={log.data?.entries ?? []}
            columns={columns}
            emptyText={log.isError ? t('activity.load_error') : t('activity.empty')}
            verticalAlign="top"
            rowAttributes={(entry) => ({ 'data-area': entry.area, 'data-action': entry.action })}
          />
        )}
        <ListPagination
          page={page}
          pageSize={LIST_PAGE_SIZE}
          total={total}
          onChange={setPage}
          testId="activity-pagination"
        />
      </ListCard>
    </ListPage>
  );
}
