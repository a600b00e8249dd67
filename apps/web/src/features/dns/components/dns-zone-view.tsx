import { NativeSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { isActionable, LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { DnsRecord } from '@panel247/contract/dns';
import { DNS_TYPES } from '@panel247/contract/dns-rules';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { useEffect, useMemo, useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { lazyDialog } from '../../../components/lazy-dialog';
import { ListBody } from '../../../components/list-body';
import { ListCard, ListPage } from '../../../components/list-page';
import { NotFoundView } from '../../../components/not-found-view';
import { ApiError } from '../../../lib/api-client';
import { notifyCall, notifyError } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { useDeleteAllDnsRecords } from '../api/delete-all-dns-records';
import { useDeleteDnsRecord } from '../api/delete-dns-record';
import { useExportDnsZone } from '../api/export-dns-zone';
import { type DnsListQuery, FIRST_DNS_PAGE } from '../api/list-dns-records';
import { useRestoreDnsZone } from '../api/restore-dns-zone';
import { useDnsRecords } from '../api/use-dns-records';
import { fullName } from '../lib/dns-format';
import { DnsHistoryCard } from './dns-history-card';
import { DnsPublishingAlert } from './dns-publishing-alert';
import { DnsRecordTable } from './dns-record-table';
import { DnsToolbar } from './dns-toolbar';
import { DnssecCard } from './dnssec-card';

export const DNS_FILTER_DEBOUNCE_MS = 300;

const DnsCreateModal = lazyDialog(() => import('./dns-create-modal').then((m) => m.DnsCreateModal), { opened: false });
const ZoneImportModal = lazyDialog(() => import('./zone-import-modal').then((m) => m.ZoneImportModal), {
  opened: false,
});
const RecordEditModal = lazyDialog(() => import('./record-edit-modal').then((m) => m.RecordEditModal), {
  record: null,
});

type Confirm = { kind: 'delete'; record: DnsRecord } | { kind: 'restore' } | { kind: 'deleteAll' } | null;

/** The DNS zone of a service: its records, paged and filtered on the server, and their dialogs. */
export function DnsZoneView({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const zoneName = set.referencePunycode;
  const canWrite = isActionable(set.permissions.service_dnszone);
  usePageTitle(set.reference);

  const [type, setType] = useState<DnsListQuery['type']>(FIRST_DNS_PAGE.type);
  const [filterText, setFilterText] = useState('');
  const [filter] = useDebouncedValue(filterText.trim(), DNS_FILTER_DEBOUNCE_MS);
  const [page, setPage] = useState(FIRST_DNS_PAGE.page);
  // the filters start over on page 1
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a filter change only
  useEffect(() => setPage(1), [type, filter, serviceId]);

  const list = useDnsRecords(serviceId, { page, type, filter });
  const total = list.data?.total ?? 0;
  const records = list.data?.dnss ?? [];
  const lastPage = Math.max(1, Math.ceil(total / LIST_PAGE_SIZE));
  // a delete can empty the last page: go back to the new last one
  useEffect(() => {
    if (list.data && page > lastPage) setPage(lastPage);
  }, [list.data, page, lastPage]);

  const listError = list.error;
  const zoneMissing = listError instanceof ApiError && listError.status === 404;
  useErrorToast(listError, !zoneMissing);

  const [creating, setCreating, closeCreate] = useDialog(false);
  const [importing, setImporting, closeImport] = useDialog(false);
  const [editing, setEditing, closeEdit] = useDialog<DnsRecord | null>(null);
  const [confirm, setConfirm, closeConfirm] = useDialog<Confirm>(null);

  const remove = useDeleteDnsRecord(serviceId);
  const restore = useRestoreDnsZone(serviceId);
  const removeAll = useDeleteAllDnsRecords(serviceId);
  const exportZone = useExportDnsZone(serviceId);

  const runConfirmed = async () => {
    if (!confirm) return;
    await notifyCall(
      () =>
        confirm.kind === 'delete'
          ? remove.mutateAsync(confirm.record.id)
          : confirm.kind === 'restore'
            ? restore.mutateAsync()
            : removeAll.mutateAsync(),
      closeConfirm,
    );
  };

  const filtered = type !== '' || filter !== '';
  const emptyText = list.isError ? t('dns.load_error') : filtered ? t('dns.no_results') : t('dns.empty');
  // A keystroke in the filter changes only the field until the debounced filter reaches the
  // query: the table, the DNSSEC and history cards and the dialogs are kept as they were
  // rendered (a 10,000-record zone's view re-rendered whole at every key).
  const exporting = exportZone.isPending;
  const exportMutate = exportZone.mutate;
  const toolbar = useMemo(
    () => (
      <DnsToolbar
        canWrite={canWrite}
        exporting={exporting}
        onCreate={() => setCreating(true)}
        onImport={() => setImporting(true)}
        onExport={() => exportMutate(undefined, { onError: notifyError })}
        onRestore={() => setConfirm({ kind: 'restore' })}
        onDeleteAll={() => setConfirm({ kind: 'deleteAll' })}
      />
    ),
    [canWrite, exporting, exportMutate, setCreating, setImporting, setConfirm],
  );
  const fetching = list.isFetching;
  const table = useMemo(
    () => (
      <DnsRecordTable
        records={records}
        canWrite={canWrite}
        busy={fetching}
        emptyText={emptyText}
        onEdit={setEditing}
        onDelete={(record) => setConfirm({ kind: 'delete', record })}
      />
    ),
    [records, canWrite, fetching, emptyText, setEditing, setConfirm],
  );
  const dialogs = useMemo(
    () => (
      <>
        <DnssecCard serviceId={serviceId} canWrite={canWrite} />
        <DnsHistoryCard serviceId={serviceId} zoneName={zoneName} canWrite={canWrite} />
        <DnsCreateModal
          opened={creating}
          onClose={closeCreate}
          serviceId={serviceId}
          zoneName={zoneName}
          canWrite={canWrite}
        />
        <ZoneImportModal
          opened={importing}
          onClose={closeImport}
          serviceId={serviceId}
          zoneName={zoneName}
          canWrite={canWrite}
        />
        <RecordEditModal
          record={editing}
          onClose={closeEdit}
          serviceId={serviceId}
          zoneName={zoneName}
          canWrite={canWrite}
        />
      </>
    ),
    [serviceId, zoneName, canWrite, creating, closeCreate, importing, closeImport, editing, closeEdit],
  );

  // a service without a DNS zone, or someone else's, answers 404
  if (zoneMissing) return <NotFoundView />;

  const confirmText =
    confirm?.kind === 'delete'
      ? {
          title: t('dns.delete_title'),
          message: t('dns.delete_confirm', {
            type: confirm.record.type,
            name: fullName(confirm.record),
            value: confirm.record.value,
          }),
          label: t('dns.delete'),
        }
      : confirm?.kind === 'restore'
        ? { title: t('dns.restore_title'), message: t('dns.restore_confirm'), label: t('dns.confirm') }
        : { title: t('dns.delete_all_title'), message: t('dns.delete_all_confirm'), label: t('dns.delete_all') };

  return (
    <ListPage testId="dns-view" title={set.reference}>
      <DnsPublishingAlert serviceId={serviceId} publishing={list.data?.publishing} canWrite={canWrite} />
      <ListCard title={t('dns.records')} actions={toolbar}>
        <ListBody
          testId="dns"
          filter={{
            label: t('dns.filter'),
            placeholder: t('dns.filter_placeholder'),
            value: filterText,
            onChange: setFilterText,
          }}
          selects={
            <NativeSelect
              label={t('dns.filter_type')}
              data={[{ value: '', label: t('dns.all_types') }, ...DNS_TYPES.map((value) => ({ value, label: value }))]}
              value={type}
              // the options are the contract's own types
              onChange={(event) => setType(event.currentTarget.value as DnsListQuery['type'])}
              data-testid="dns-type-filter"
              w={180}
            />
          }
          pagedOnServer
          loading={list.isPending}
          skeleton={{ rows: 5, height: 32 }}
          pagination={{ page, pageSize: LIST_PAGE_SIZE, total, onChange: setPage }}
        >
          {table}
        </ListBody>
      </ListCard>
      {dialogs}
      <ConfirmModal
        opened={confirm !== null}
        title={confirmText.title}
        message={confirmText.message}
        confirmLabel={confirmText.label}
        busy={remove.isPending || restore.isPending || removeAll.isPending}
        onConfirm={runConfirmed}
        onClose={closeConfirm}
        testId={
          confirm?.kind === 'delete'
            ? 'dns-delete-modal'
            : confirm?.kind === 'restore'
              ? 'dns-restore-modal'
              : 'dns-delete-all-modal'
        }
      />
    </ListPage>
  );
}
