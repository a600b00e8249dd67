import { Badge, Text } from '@mantine/core';
import type { MailboxSpam, SpamMode } from '@panel247/contract/mail-spam';
import { IconPencil } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { lazyDialog } from '../../../components/lazy-dialog';
import { ListCard } from '../../../components/list-page';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { rowActionsColumn } from '../../../components/row-actions';
import { useDialog } from '../../../lib/use-dialog';
import { useTranslation } from '../../../lib/use-translation';

// loaded when first opened: readers never need the form
const SpamMailboxModal = lazyDialog(() => import('./spam-mailbox-modal').then((m) => m.SpamMailboxModal), {
  mailbox: null,
});

const MODE_COLORS: Record<SpamMode, string> = { off: 'gray', junk: 'orange', tag: 'blue' };

/**
 * Each mailbox's filtering: off, spam moved to Junk, or spam only tagged, and the score from
 * which a message is spam. Changing it needs the spam right.
 */
export function SpamMailboxesCard({
  serviceId,
  domain,
  mailboxes,
  loading,
  failed,
  busy,
  canWrite,
}: {
  serviceId: number;
  domain: string;
  mailboxes: MailboxSpam[];
  loading: boolean;
  failed: boolean;
  busy: boolean;
  canWrite: boolean;
}) {
  const { t } = useTranslation();
  const [editing, setEditing, closeEdit] = useDialog<MailboxSpam | null>(null);
  const addressOf = (mailbox: MailboxSpam) => `${mailbox.user}@${domain}`;
  const columns: DataTableColumn<MailboxSpam>[] = [
    {
      accessor: 'user',
      title: t('mail.account'),
      render: (mailbox) => (
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="spam-mailbox-address">
          {addressOf(mailbox)}
        </Text>
      ),
    },
    {
      accessor: 'mode',
      title: t('mail.spam.mode'),
      render: (mailbox) => (
        <Badge variant="light" color={MODE_COLORS[mailbox.mode]} tt="none" data-testid="spam-mailbox-mode">
          {t(`mail.spam.mode_${mailbox.mode}`)}
        </Badge>
      ),
    },
    {
      accessor: 'threshold',
      title: t('mail.spam.threshold'),
      // an unfiltered mailbox scores nothing: its kept threshold would only mislead
      render: (mailbox) =>
        mailbox.mode === 'off' ? null : (
          <Text size="sm" data-testid="spam-mailbox-threshold">
            {mailbox.threshold}
          </Text>
        ),
    },
    ...(canWrite
      ? [
          rowActionsColumn<MailboxSpam>(t('mail.actions'), (mailbox) => [
            {
              label: t('mail.spam.edit_item', { name: addressOf(mailbox) }),
              testId: 'spam-mailbox-edit',
              icon: <IconPencil size={16} aria-hidden />,
              onClick: () => setEditing(mailbox),
            },
          ]),
        ]
      : []),
  ];
  return (
    <ListCard
      title={t('mail.spam.mailboxes_title')}
      subtitle={
        <Text size="sm" c="dimmed" maw={720} data-testid="spam-modes-intro">
          {t('mail.spam.modes_intro')}
        </Text>
      }
    >
      {loading ? (
        <ListSkeleton testId="spam-mailboxes-skeleton" rows={2} />
      ) : (
        <ListTable
          testId="spam-mailboxes"
          busy={busy}
          records={mailboxes}
          columns={columns}
          emptyText={failed ? t('mail.load_error') : t('mail.spam.no_mailboxes')}
          rowAttributes={(mailbox) => ({ 'data-name': mailbox.user })}
        />
      )}
      <SpamMailboxModal
        mailbox={editing}
        address={editing ? addressOf(editing) : ''}
        onClose={closeEdit}
        serviceId={serviceId}
        allowed={canWrite}
      />
    </ListCard>
  );
}
