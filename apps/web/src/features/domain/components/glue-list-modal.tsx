import { ActionIcon, Group, Loader, Table, Text, VisuallyHidden } from '@mantine/core';
import type { GlueRecord } from '@panel247/contract/domain';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteGlueRecord } from '../api/delete-glue-record';
import { useGlueRecords } from '../api/list-glue-records';
import { useActionError, useActionGuard } from '../lib/use-action-guard';
import { ConfirmDeleteModal } from './confirm-delete-modal';
import { GlueFormModal } from './glue-form-modal';

/** The glue list with edit and delete; the sub-dialogs take its place and hand back to it. */
export function GlueListModal({
  id,
  domainName,
  opened,
  allowed,
  onClose,
}: {
  id: number;
  domainName: string;
  opened: boolean;
  allowed: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const ok = useActionGuard(opened, allowed, onClose);
  const list = useGlueRecords(id, opened && ok);
  const remove = useDeleteGlueRecord(id);
  const onError = useActionError();
  const [editing, setEditing] = useState<GlueRecord | null>(null);
  const [deleting, setDeleting] = useState<GlueRecord | null>(null);

  const closeAll = () => {
    setEditing(null);
    setDeleting(null);
    onClose();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      notifySuccess(await remove.mutateAsync(deleting.id));
      setDeleting(null);
    } catch (error) {
      onError(error, closeAll);
      setDeleting(null);
    }
  };

  const records = list.data ?? [];
  return (
    <>
      <AppModal
        opened={opened && ok && !editing && !deleting}
        onClose={onClose}
        title={t('domain.glue.manage')}
        size="lg"
        data-testid="glue-list-modal"
      >
        {list.isPending ? (
          <Loader size="sm" aria-label={t('main.loading')} />
        ) : records.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('domain.glue.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table data-testid="glue-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('domain.glue.name')}</Table.Th>
                  <Table.Th>{t('domain.glue.ip')}</Table.Th>
                  <Table.Th>{t('domain.glue.ipv6')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('domain.actions_column')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {records.map((record) => (
                  <Table.Tr key={record.id} data-testid="glue-row">
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{record.name}</Table.Td>
                    <Table.Td>{record.ip}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{record.ipv6}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('domain.glue.edit_named', { name: record.name })}
                          onClick={() => setEditing(record)}
                          data-testid="glue-edit"
                        >
                          <IconEdit size={16} aria-hidden />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('domain.glue.delete_named', { name: record.name })}
                          onClick={() => setDeleting(record)}
                          data-testid="glue-delete"
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </AppModal>
      {editing ? (
        <GlueFormModal
          id={id}
          domainName={domainName}
          record={editing}
          opened={opened}
          allowed={allowed}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDeleteModal
        opened={opened && deleting !== null}
        title={t('domain.glue.delete')}
        message={t('domain.glue.delete_confirm', { name: deleting?.name ?? '' })}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
        testId="glue-delete-modal"
      />
    </>
  );
}
