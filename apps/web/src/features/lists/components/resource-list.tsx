import { Button, Card, Stack, TextInput, Title } from '@mantine/core';
import type { PermissionEntry } from '@panel247/contract/permissions';
import { IconSearch, IconSettings } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import 'mantine-datatable/styles.css';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { useDeferredValue, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePermissionList } from '../../../api/get-permission-list';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { HostText } from '../../../components/host-text';
import { ListPagination } from '../../../components/list-pagination';
import { pathByFlags } from '../../../lib/resource-paths';
import { useClientPage } from '../../../lib/use-client-page';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { type ListKind, matchEntries, searchableEntries } from '../lib/filter-entries';

export function ResourceList({ kind }: { kind: ListKind }) {
  const { t } = useTranslation();
  const title = t(`lists.${kind}_title`);
  usePageTitle(title);
  const navigate = useNavigate();
  const list = usePermissionList();
  const [query, setQuery] = useState('');
  // Sorted and lower-cased once per permission list; each keystroke only filters, and renders
  // the deferred query's rows after the field has shown the key (10,000 entries at a reseller's).
  const searchable = useMemo(() => searchableEntries(list.data?.permissions ?? [], kind), [list.data, kind]);
  const shownQuery = useDeferredValue(query);
  const rows = useMemo(() => matchEntries(searchable, shownQuery), [searchable, shownQuery]);
  // The same paging as every other list: the bar only when there are more rows than a page.
  const { page, setPage, pageRows } = useClientPage(rows);
  const open = (entry: PermissionEntry) => navigate(pathByFlags(entry));

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Card withBorder padding="md">
        <Stack gap="md">
          <TextInput
            label={t('lists.filter')}
            placeholder={t('lists.filter_placeholder')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={query}
            onChange={(event) => {
              setQuery(event.currentTarget.value);
              setPage(1);
            }}
            data-testid="list-filter"
            maw={360}
          />
          {list.isPending ? (
            <DelayedSpinner />
          ) : (
            <DataTable<PermissionEntry>
              data-testid="resource-list"
              withTableBorder
              borderRadius="sm"
              highlightOnHover
              minHeight={rows.length === 0 ? 180 : undefined}
              idAccessor="id"
              records={pageRows}
              columns={[
                {
                  accessor: 'reference',
                  title: t('lists.reference'),
                  render: (entry) => <HostText value={entry.reference} />,
                },
                {
                  accessor: 'actions',
                  title: t('lists.actions'),
                  textAlign: 'right',
                  render: (entry) => (
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconSettings size={14} aria-hidden />}
                      onClick={(event) => {
                        event.stopPropagation();
                        open(entry);
                      }}
                      aria-label={t('lists.manage_item', { reference: entry.reference })}
                    >
                      {t('lists.manage')}
                    </Button>
                  ),
                },
              ]}
              onRowClick={({ record }) => open(record)}
              customRowAttributes={(entry) => ({ 'data-name': entry.reference })}
              noRecordsText={t('lists.no_results')}
            />
          )}
          <ListPagination
            page={page}
            pageSize={LIST_PAGE_SIZE}
            total={rows.length}
            onChange={setPage}
            testId="resource-list-pagination"
          />
        </Stack>
      </Card>
    </Stack>
  );
}
