import { Table } from '@mantine/core';
import type { GlueRecord } from '@panel247/contract/domain';
import { useTranslation } from '../../../lib/use-translation';
import { useDeleteGlueRecord } from '../api/delete-glue-record';
import { useGlueRecords } from '../api/list-glue-records';
import { EntryListModal } from './entry-list-modal';
import { GlueFormModal } from './glue-form-modal';

/** The glue list with edit and delete. */
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
  return (
    <EntryListModal<GlueRecord>
      id={id}
      opened={opened}
      allowed={allowed}
      onClose={onClose}
      kind={{
        testId: 'glue',
        title: t('domain.glue.manage'),
        empty: t('domain.glue.empty'),
        size: 'lg',
        minWidth: 420,
        useList: useGlueRecords,
        useDelete: useDeleteGlueRecord,
        headers: [t('domain.glue.name'), t('domain.glue.ip'), t('domain.glue.ipv6')],
        cells: (record) => (
          <>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{record.name}</Table.Td>
            <Table.Td>{record.ip}</Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{record.ipv6}</Table.Td>
          </>
        ),
        deleteLabel: (record) => t('domain.glue.delete_named', { name: record.name }),
        deleteTitle: t('domain.glue.delete'),
        deleteMessage: (record) => t('domain.glue.delete_confirm', { name: record?.name ?? '' }),
        edit: {
          label: (record) => t('domain.glue.edit_named', { name: record.name }),
          dialog: (record, close) => (
            <GlueFormModal
              id={id}
              domainName={domainName}
              record={record}
              opened={opened}
              allowed={allowed}
              onClose={close}
            />
          ),
        },
      }}
    />
  );
}
