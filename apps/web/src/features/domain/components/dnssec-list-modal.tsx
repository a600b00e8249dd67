import { Table } from '@mantine/core';
import type { DnssecEntry } from '@panel247/contract/domain';
import { DNSSEC_ALGORITHMS, DNSSEC_DIGEST_TYPES } from '@panel247/contract/domain-rules';
import { HexText } from '../../../components/hex-text';
import { useTranslation } from '../../../lib/use-translation';
import { useDeleteDnssec } from '../api/delete-dnssec';
import { useDnssecList } from '../api/list-dnssec';
import { EntryListModal } from './entry-list-modal';

/** The DNSSEC entries with delete (an entry is never edited: it is deleted and added again). */
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
  return (
    <EntryListModal<DnssecEntry>
      id={id}
      opened={opened}
      allowed={allowed}
      onClose={onClose}
      kind={{
        testId: 'dnssec',
        title: t('domain.dnssec.manage'),
        empty: t('domain.dnssec.empty'),
        size: 'xl',
        minWidth: 560,
        dense: true,
        useList: useDnssecList,
        useDelete: useDeleteDnssec,
        headers: [
          t('domain.dnssec.keytag'),
          t('domain.dnssec.algorithm'),
          t('domain.dnssec.digest_type'),
          t('domain.dnssec.digest'),
        ],
        cells: (entry) => (
          <>
            <Table.Td>{entry.keytag}</Table.Td>
            <Table.Td>{DNSSEC_ALGORITHMS[entry.algorithm] ?? entry.algorithm}</Table.Td>
            <Table.Td>{DNSSEC_DIGEST_TYPES[entry.digesttype] ?? entry.digesttype}</Table.Td>
            <Table.Td>
              <HexText value={entry.digest} copyLabel={t('domain.dnssec.copy_digest', { keytag: entry.keytag })} />
            </Table.Td>
          </>
        ),
        deleteLabel: (entry) => t('domain.dnssec.delete_named', { keytag: entry.keytag }),
        deleteTitle: t('domain.dnssec.delete'),
        deleteMessage: (entry) => t('domain.dnssec.delete_confirm', { keytag: entry?.keytag ?? '' }),
      }}
    />
  );
}
