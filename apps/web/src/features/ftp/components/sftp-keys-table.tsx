import { Stack, Text } from '@mantine/core';
import type { SshKey } from '@panel247/contract/sftp-keys';
import { IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { formatEpoch } from '../../../lib/dates';
import { useTranslation } from '../../../lib/use-translation';

/**
 * The service's SSH keys: name and when it was added, the login it opens, its type and size, and
 * its fingerprint (what `ssh-keygen -l` prints, to compare with the key on the customer's computer).
 */
export function SftpKeysTable({
  keys,
  canWrite,
  emptyText,
  busy,
  onRemove,
}: {
  keys: SshKey[];
  canWrite: boolean;
  emptyText: string;
  busy: boolean;
  onRemove: (key: SshKey) => void;
}) {
  const { t, i18n } = useTranslation();
  const columns: DataTableColumn<SshKey>[] = [
    {
      accessor: 'name',
      title: t('sftp.key_name'),
      render: (key) => (
        <Stack gap={2}>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="sftp-key-name">
            {key.name}
          </Text>
          <Text size="xs" c="dimmed">
            <time dateTime={new Date(key.createdAt * 1000).toISOString()}>
              {formatEpoch(key.createdAt, i18n.language)}
            </time>
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'login',
      title: t('sftp.key_login'),
      render: (key) => (
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="sftp-key-login">
          {key.login}
        </Text>
      ),
    },
    {
      accessor: 'algorithm',
      title: t('sftp.key_type'),
      render: (key) => (
        <Text size="sm" data-testid="sftp-key-type">
          {t('sftp.key_type_value', { algorithm: key.algorithm, bits: key.bits })}
        </Text>
      ),
    },
    {
      accessor: 'fingerprint',
      title: t('sftp.key_fingerprint'),
      render: (key) => (
        <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="sftp-key-fingerprint">
          {key.fingerprint}
        </Text>
      ),
    },
    rowActionsColumn(t('sftp.actions'), (key) => [
      canWrite && {
        label: t('sftp.remove_item', { name: key.name }),
        testId: 'sftp-key-remove',
        color: 'red',
        icon: <IconTrash size={16} aria-hidden />,
        onClick: () => onRemove(key),
      },
    ]),
  ];
  return (
    <ListTable
      testId="sftp-keys"
      busy={busy}
      records={keys}
      columns={columns}
      emptyText={emptyText}
      verticalAlign="top"
      rowAttributes={(key) => ({ 'data-key': String(key.id) })}
    />
  );
}
