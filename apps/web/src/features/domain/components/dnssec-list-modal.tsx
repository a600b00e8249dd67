import { ActionIcon, Code, Loader, Table, Text, VisuallyHidden } from '@mantine/core';
import type { DnssecEntry } from '@panel247/contract/domain';
import { DNSSEC_ALGORITHMS, DNSSEC_DIGEST_TYPES } from '@panel247/contract/domain-rules';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteDnssec } from '../api/delete-dnssec';
import { useDnssecList } from '../api/list-dnssec';
import { useActionError, useActionGuard } from '../lib/use-action-guard';
import { ConfirmDeleteModal } from './confirm-delete-modal';

export function DnssecListModal({
  id,
  opened,
  allowed,
  onClose,
}: {
  id: number;
  opened: boolean;
  allowed: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const ok = useActionGuard(opened, allowed, onClose);
  const list = useDnssecList(id, opened && ok);
  const remove = useDeleteDnssec(id);
  const onError = useActionError();
  const [deleting, setDeleting] = useState<DnssecEntry | null>(null);

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      notifySuccess(await remove.mutateAsync(deleting.id));
      setDeleting(null);
    } catch (error) {
      setDeleting(null);
      onError(error, onClose);
    }
  };

  const entries = list.data ?? [];
  return (
    <>
      <AppModal
        opened={opened && ok && !deleting}
        onClose={onClose}
        title={t('domain.dnssec.manage')}
        size="xl"
        data-testid="dnssec-list-modal"
      >
        {list.isPending ? (
          <Loader size="sm" aria-label={t('main.loading')} />
        ) : entries.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('domain.dnssec.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table data-testid="dnssec-table" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('domain.dnssec.keytag')}</Table.Th>
                  <Table.Th>{t('domain.dnssec.algorithm')}</Table.Th>
                  <Table.Th>{t('domain.dnssec.digest_type')}</Table.Th>
                  <Table.Th>{t('domain.dnssec.digest')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('domain.actions_column')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <Table.Tr key={entry.id} data-testid="dnssec-row">
                    <Table.Td>{entry.keytag}</Table.Td>
                    <Table.Td>{DNSSEC_ALGORITHMS[entry.algorithm] ?? entry.algorithm}</Table.Td>
                    <Table.Td>{DNSSEC_DIGEST_TYPES[entry.digesttype] ?? entry.digesttype}</Table.Td>
                    <Table.Td>
                      <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{entry.digest}</Code>
                    </Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('domain.dnssec.delete_named', { keytag: entry.keytag })}
                        onClick={() => setDeleting(entry)}
                        data-testid="dnssec-delete"
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </AppModal>
      <ConfirmDeleteModal
        opened={opened && deleting !== null}
        title={t('domain.dnssec.delete')}
        message={t('domain.dnssec.delete_confirm', { keytag: deleting?.keytag ?? '' })}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
        testId="dnssec-delete-modal"
      />
    </>
  );
}
