import { Badge, Text } from '@mantine/core';
import type { SpamSender } from '@panel247/contract/mail-spam';
import { IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useId, useMemo } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListCard } from '../../../components/list-page';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { formatEpoch } from '../../../lib/dates';
import { notifyCall } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useRemoveSpamSender } from '../api/remove-spam-sender';
import { senderLimitReached, sortedSenders } from '../lib/spam-lists';
import { SpamSenderForm } from './spam-sender-form';

/**
 * The service's allow list (never filtered) and block list (always spam), in one table with each
 * sender's list, and for users with the spam right the form that adds one and Remove (confirmed).
 */
export function SpamSendersCard({
  serviceId,
  senders,
  maxSenders,
  loading,
  failed,
  busy,
  canWrite,
}: {
  serviceId: number;
  senders: SpamSender[];
  maxSenders: number | null;
  loading: boolean;
  failed: boolean;
  busy: boolean;
  canWrite: boolean;
}) {
  const { t, i18n } = useTranslation();
  const rows = useMemo(() => sortedSenders(senders), [senders]);
  const full = !loading && senderLimitReached(senders.length, maxSenders);
  const limitHintId = useId();
  const [removing, setRemoving, closeRemove] = useDialog<SpamSender | null>(null);
  const removeShown = useRightGuard(removing !== null, canWrite, closeRemove);
  const remove = useRemoveSpamSender(serviceId);
  const runRemove = async () => {
    if (removing) await notifyCall(() => remove.mutateAsync(removing.id), closeRemove);
  };

  const columns: DataTableColumn<SpamSender>[] = [
    {
      accessor: 'sender',
      title: t('mail.spam.sender'),
      render: (sender) => (
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="spam-sender-name">
          {sender.sender}
        </Text>
      ),
    },
    {
      accessor: 'list',
      title: t('mail.spam.list'),
      render: (sender) => (
        <Badge
          variant="light"
          color={sender.list === 'block' ? 'red' : 'green'}
          tt="none"
          data-testid="spam-sender-list-badge"
        >
          {t(`mail.spam.list_${sender.list}`)}
        </Badge>
      ),
    },
    {
      accessor: 'createdAt',
      title: t('mail.spam.added'),
      render: (sender) => (
        <Text size="sm">
          <time dateTime={new Date(sender.createdAt * 1000).toISOString()}>
            {formatEpoch(sender.createdAt, i18n.language, 'day')}
          </time>
        </Text>
      ),
    },
    ...(canWrite
      ? [
          rowActionsColumn<SpamSender>(t('mail.actions'), (sender) => [
            {
              label: t('mail.spam.remove_item', { sender: sender.sender }),
              testId: 'spam-sender-remove',
              color: 'red',
              icon: <IconTrash size={16} aria-hidden />,
              onClick: () => setRemoving(sender),
            },
          ]),
        ]
      : []),
  ];

  const usage =
    maxSenders === null
      ? t('mail.spam.usage_unlimited', { used: senders.length })
      : t('mail.spam.usage', { used: senders.length, limit: maxSenders });
  return (
    <ListCard
      title={t('mail.spam.senders_title')}
      subtitle={
        <Text size="sm" c="dimmed" maw={720} data-testid="spam-senders-intro">
          {t('mail.spam.senders_intro')} {loading ? null : usage}
        </Text>
      }
    >
      {canWrite ? (
        <>
          <SpamSenderForm serviceId={serviceId} full={full} limitHintId={limitHintId} />
          {full ? (
            <Text size="sm" c="dimmed" id={limitHintId} data-testid="spam-senders-limit-hint">
              {t('mail.spam.limit_reached', { limit: maxSenders })}
            </Text>
          ) : null}
        </>
      ) : null}
      {loading ? (
        <ListSkeleton testId="spam-senders-skeleton" rows={2} />
      ) : (
        <ListTable
          testId="spam-senders"
          busy={busy}
          records={rows}
          columns={columns}
          emptyText={failed ? t('mail.load_error') : t('mail.spam.no_senders')}
          rowAttributes={(sender) => ({ 'data-name': sender.sender, 'data-list': sender.list })}
        />
      )}
      <ConfirmModal
        opened={removing !== null && removeShown}
        title={t('mail.spam.remove_title')}
        message={t(removing?.list === 'allow' ? 'mail.spam.remove_allow_confirm' : 'mail.spam.remove_block_confirm', {
          sender: removing?.sender ?? '',
        })}
        confirmLabel={t('mail.spam.remove')}
        busy={remove.isPending}
        onConfirm={runRemove}
        onClose={closeRemove}
        testId="spam-sender-remove-modal"
      />
    </ListCard>
  );
}
