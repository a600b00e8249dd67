import { Badge, Group, Text } from '@mantine/core';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { DnsChangeSet } from '@panel247/contract/dns-history';
import { IconHistory } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { lazyDialog } from '../../../components/lazy-dialog';
import { ListCard } from '../../../components/list-page';
import { ListPagination } from '../../../components/list-pagination';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useTranslation } from '../../../lib/use-translation';
import { useDnsHistory } from '../api/dns-history';
import { useChangeWords } from './dns-change-words';

const DnsChangeModal = lazyDialog(() => import('./dns-change-modal').then((m) => m.DnsChangeModal), {
  changeId: null,
});

/** The zone's history: its change sets, newest first and paged on the server, each opening its diff. */
export function DnsHistoryCard({
  serviceId,
  zoneName,
  canWrite,
}: {
  serviceId: number;
  zoneName: string;
  canWrite: boolean;
}) {
  const { t } = useTranslation();
  const words = useChangeWords();
  const [page, setPage] = useState(1);
  const history = useDnsHistory(serviceId, page);
  useErrorToast(history.error);
  const total = history.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / LIST_PAGE_SIZE));
  useEffect(() => {
    if (history.data && page > lastPage) setPage(lastPage);
  }, [history.data, page, lastPage]);
  const [open, setOpen, close] = useDialog<number | null>(null);

  const columns: DataTableColumn<DnsChangeSet>[] = [
    { accessor: 'at', title: t('dns.history.when'), noWrap: true, render: (change) => words.when(change.at) },
    {
      accessor: 'kind',
      title: t('dns.history.what'),
      cellsStyle: () => ({ minWidth: 160 }),
      render: (change) => (
        <Group gap={6} wrap="wrap">
          <Text size="sm">{words.kind(change)}</Text>
          <Badge variant="light" size="sm" style={{ textTransform: 'none' }}>
            {t('dns.history.rrsets', { count: change.rrsets })}
          </Badge>
        </Group>
      ),
    },
    { accessor: 'who', title: t('dns.history.who'), render: (change) => words.who(change) },
    rowActionsColumn(t('dns.history.details'), (change) => [
      {
        label: t('dns.history.open', { id: change.id }),
        testId: 'dns-history-open',
        icon: <IconHistory size={16} aria-hidden />,
        onClick: () => setOpen(change.id),
      },
    ]),
  ];

  return (
    <ListCard title={t('dns.history.title')}>
      {history.isPending ? (
        <ListSkeleton rows={3} height={32} testId="dns-history-skeleton" />
      ) : (
        <ListTable
          testId="dns-history"
          busy={history.isFetching}
          records={history.data?.changes ?? []}
          columns={columns}
          emptyText={history.isError ? t('dns.history.load_error') : t('dns.history.empty')}
          rowAttributes={(change) => ({ 'data-kind': change.kind, 'data-id': String(change.id) })}
        />
      )}
      <ListPagination
        page={page}
        pageSize={LIST_PAGE_SIZE}
        total={total}
        onChange={setPage}
        testId="dns-history-pagination"
      />
      <DnsChangeModal serviceId={serviceId} zoneName={zoneName} changeId={open} canWrite={canWrite} onClose={close} />
    </ListCard>
  );
}
