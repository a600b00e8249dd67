import { Badge, Button } from '@mantine/core';
import { isActionable, isVisible, LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { Redirection } from '@panel247/contract/hosting';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { ConfirmModal } from '../../../components/confirm-modal';
import { HostText } from '../../../components/host-text';
import { ListBody } from '../../../components/list-body';
import { ListCard } from '../../../components/list-page';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { notifyCall } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useServerPage, useStepBack } from '../../../lib/use-server-page';
import { useTranslation } from '../../../lib/use-translation';
import { useDeleteRedirection } from '../api/delete-redirection';
import { useRedirectionPage } from '../api/list-redirection-page';
import { useSubdomains } from '../api/list-subdomains';
import { hostChoices } from '../lib/hosting-rows';
import { RedirectionModal } from './redirection-modal';

/** The redirections of a service: filter, paging above 10 rows, create/edit/delete with the redirection right. */
export function RedirectionsCard({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const canWrite = isActionable(set.permissions.service_redirects);
  const { text, setText, filter, page, setPage } = useServerPage([serviceId]);
  const list = useRedirectionPage(serviceId, { page, filter });
  useErrorToast(list.error);
  const rows = list.data?.redirection ?? [];
  // a full answer (no total) counts its own rows
  const total = list.data?.total ?? rows.length;
  useStepBack(total, list.data !== undefined, page, setPage);
  // The hosts a new redirection can start from (the main domain without the sites right).
  const sites = useSubdomains(serviceId, canWrite && isVisible(set.permissions.service_subdomains));
  const hosts = hostChoices(set.referencePunycode, sites.data ?? []);

  const [editing, setEditing, closeEdit] = useDialog<Redirection | 'new' | null>(null);
  const [deleting, setDeleting, closeDelete] = useDialog<Redirection | null>(null);
  const remove = useDeleteRedirection(serviceId);
  const deleteShown = useRightGuard(deleting !== null, canWrite, closeDelete);
  const runDelete = async () => {
    if (deleting) await notifyCall(() => remove.mutateAsync(deleting.id), closeDelete);
  };

  const typeLabel = (type: Redirection['redirType']) => t(`hosting.redir_type_${type}`);
  const columns: DataTableColumn<Redirection>[] = [
    {
      accessor: 'origin',
      title: t('hosting.origin'),
      render: (item) => <HostText fw={500} value={item.origin} />,
    },
    {
      accessor: 'url',
      title: t('hosting.destination'),
      render: (item) => <HostText ff="monospace" value={item.url} testId="hosting-redirection-url" />,
    },
    {
      accessor: 'redirType',
      title: t('hosting.redir_type'),
      render: (item) => (
        <Badge
          variant="light"
          color={item.redirType === 'frame' ? 'violet' : 'blue'}
          data-testid="hosting-redirection-type"
        >
          {typeLabel(item.redirType)}
        </Badge>
      ),
    },
  ];
  if (canWrite) {
    columns.push(
      rowActionsColumn(t('hosting.actions'), (item) => [
        {
          label: t('hosting.edit_redirection_item', { name: item.origin }),
          testId: 'hosting-redirection-edit',
          icon: <IconPencil size={16} aria-hidden />,
          onClick: () => setEditing(item),
        },
        item.eliminable && {
          label: t('hosting.delete_item', { name: item.origin }),
          testId: 'hosting-redirection-delete',
          color: 'red',
          icon: <IconTrash size={16} aria-hidden />,
          onClick: () => setDeleting(item),
        },
      ]),
    );
  }

  const emptyText = list.isError
    ? t('hosting.load_error')
    : filter
      ? t('hosting.redirections_no_results')
      : t('hosting.redirections_empty');

  return (
    <ListCard
      title={t('hosting.redirections_title')}
      actions={
        canWrite ? (
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing('new')}
            data-testid="hosting-redirection-create"
          >
            {t('hosting.redirection_create')}
          </Button>
        ) : null
      }
    >
      <ListBody
        testId="hosting-redirection"
        filter={{
          label: t('hosting.filter'),
          placeholder: t('hosting.redirections_filter_placeholder'),
          value: text,
          onChange: setText,
        }}
        pagedOnServer
        loading={list.isPending}
        pagination={{ page, pageSize: LIST_PAGE_SIZE, total, onChange: setPage }}
      >
        <ListTable
          testId="hosting-redirection-list"
          busy={list.isFetching}
          records={rows}
          columns={columns}
          emptyText={emptyText}
          rowAttributes={(item) => ({ 'data-name': item.origin })}
        />
      </ListBody>
      <RedirectionModal target={editing} onClose={closeEdit} serviceId={serviceId} hosts={hosts} allowed={canWrite} />
      <ConfirmModal
        opened={deleting !== null && deleteShown}
        title={t('hosting.redirection_delete_title')}
        message={t('hosting.redirection_delete_confirm', { name: deleting?.origin ?? '', url: deleting?.url ?? '' })}
        confirmLabel={t('hosting.delete')}
        busy={remove.isPending}
        onConfirm={runDelete}
        onClose={closeDelete}
        testId="hosting-redirection-delete-modal"
      />
    </ListCard>
  );
}
