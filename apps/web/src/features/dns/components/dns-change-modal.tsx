import { Alert, Badge, Box, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { DnsChangeKind, DnsChangeRRset } from '@panel247/contract/dns-history';
import { IconArrowBackUp, IconDownload, IconRestore } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListPagination } from '../../../components/list-pagination';
import { notifyCall, notifyError, translateError } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useDnsChange, useExportDnsZoneAt, useHistoryAction } from '../api/dns-history';
import { fullName } from '../lib/dns-format';
import { useChangeWords } from './dns-change-words';

/** One RRset's diff: the records it lost (−) and gained (+); records it kept are not repeated. */
function RRsetDiff({ rrset, zoneName }: { rrset: DnsChangeRRset; zoneName: string }) {
  const words = useChangeWords();
  const name = fullName({ zona: rrset.zona, referencePunycode: zoneName });
  const text = (record: DnsChangeRRset['before'][number]) => words.record(name, rrset.type, record);
  const before = rrset.before.map(text);
  const after = rrset.after.map(text);
  const line = (sign: '-' | '+', value: string, i: number) => (
    <Text
      key={`${sign}${i}`}
      size="sm"
      ff="monospace"
      c={sign === '-' ? 'red.8' : 'green.9'}
      style={{ overflowWrap: 'anywhere' }}
      data-testid={sign === '-' ? 'dns-diff-removed' : 'dns-diff-added'}
    >
      {sign} {value}
    </Text>
  );
  return (
    <Box data-testid="dns-diff-rrset" data-rrset={`${name} ${rrset.type}`}>
      {before.filter((value) => !after.includes(value)).map((value, i) => line('-', value, i))}
      {after.filter((value) => !before.includes(value)).map((value, i) => line('+', value, i))}
    </Box>
  );
}

/** A sync changed no record, and before a zone's first records there was no zone: neither reverts. */
const revertible = (kind: DnsChangeKind) => kind !== 'sync' && kind !== 'zone';

/**
 * A change set: what it changed (RRsets before and after, paged), and what can be done with it —
 * the zone's export as it was then (reading is enough), revert it or put the zone back as it was
 * then (the DNS-zone action right; each confirmed first, each a new change set).
 */
export function DnsChangeModal({
  serviceId,
  zoneName,
  changeId,
  canWrite,
  onClose,
}: {
  serviceId: number;
  zoneName: string;
  changeId: number | null;
  canWrite: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const words = useChangeWords();
  const [page, setPage] = useState(1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each change set opens on its first page
  useEffect(() => setPage(1), [changeId]);
  const change = useDnsChange(serviceId, changeId, page);
  const revert = useHistoryAction(serviceId, 'revert');
  const restore = useHistoryAction(serviceId, 'restore');
  const exportAt = useExportDnsZoneAt(serviceId);
  const [confirm, setConfirm] = useState<'revert' | 'restore' | null>(null);
  const [refusal, setRefusal] = useState('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a refusal belongs to the change set it was about
  useEffect(() => setRefusal(''), [changeId]);

  const data = change.data && change.data.change.id === changeId ? change.data : undefined;
  const when = data ? words.when(data.change.at) : '';
  const run = async () => {
    if (changeId === null || !confirm) return;
    const action = confirm === 'revert' ? revert : restore;
    setRefusal('');
    await notifyCall(
      async () => {
        try {
          return await action.mutateAsync(changeId);
        } catch (error) {
          // the reason (which later change conflicts) stays in view, beside the diff it is about
          setRefusal(translateError(error));
          setConfirm(null);
          throw error;
        }
      },
      () => {
        setConfirm(null);
        onClose();
      },
    );
  };

  return (
    <>
      <AppModal
        opened={changeId !== null}
        onClose={onClose}
        title={t('dns.history.change_title', { id: changeId ?? '' })}
        size="xl"
        data-testid="dns-change-modal"
      >
        {!data ? (
          <Group justify="center" p="lg">
            <Loader size="sm" role="status" aria-label={t('dns.history.loading')} />
          </Group>
        ) : (
          <Stack gap="md">
            <Group gap="xs" wrap="wrap">
              <Badge variant="light" style={{ textTransform: 'none' }}>
                {words.kind(data.change)}
              </Badge>
              <Text size="sm">{when}</Text>
              <Text size="sm" c="dimmed">
                {words.who(data.change)}
              </Text>
            </Group>
            {refusal ? (
              <Alert color="red" data-testid="dns-history-refusal">
                {refusal}
              </Alert>
            ) : null}
            <Stack gap="xs" data-testid="dns-diff">
              {data.rrsets.map((rrset) => (
                <RRsetDiff key={`${rrset.zona} ${rrset.type}`} rrset={rrset} zoneName={zoneName} />
              ))}
            </Stack>
            <ListPagination
              page={page}
              pageSize={LIST_PAGE_SIZE}
              total={data.total}
              onChange={setPage}
              testId="dns-diff-pagination"
            />
            <Group justify="flex-end" gap="sm" wrap="wrap">
              <Button
                variant="default"
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={exportAt.isPending}
                onClick={() => exportAt.mutate(data.change.id, { onError: notifyError })}
                data-testid="dns-history-export"
              >
                {t('dns.history.export')}
              </Button>
              {canWrite ? (
                <Button
                  variant="default"
                  leftSection={<IconRestore size={16} aria-hidden />}
                  onClick={() => setConfirm('restore')}
                  data-testid="dns-history-restore"
                >
                  {t('dns.history.restore')}
                </Button>
              ) : null}
              {canWrite && revertible(data.change.kind) ? (
                <Button
                  leftSection={<IconArrowBackUp size={16} aria-hidden />}
                  onClick={() => setConfirm('revert')}
                  data-testid="dns-history-revert"
                >
                  {t('dns.history.revert')}
                </Button>
              ) : null}
            </Group>
          </Stack>
        )}
      </AppModal>
      <ConfirmModal
        opened={confirm !== null}
        title={confirm === 'restore' ? t('dns.history.restore') : t('dns.history.revert')}
        message={
          confirm === 'restore'
            ? t('dns.history.restore_confirm', { when })
            : t('dns.history.revert_confirm', { id: changeId ?? '' })
        }
        confirmLabel={confirm === 'restore' ? t('dns.history.restore') : t('dns.history.revert')}
        color={null}
        busy={revert.isPending || restore.isPending}
        onConfirm={run}
        onClose={() => setConfirm(null)}
        testId="dns-history-confirm"
      />
    </>
  );
}
