import { Alert, Badge, Text } from '@mantine/core';
import { SPAM_FILTERED_DAYS, SPAM_FILTERED_MAX, type SpamFiltered } from '@panel247/contract/mail-spam';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useMemo } from 'react';
import { ListCard } from '../../../components/list-page';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { formatEpoch } from '../../../lib/dates';
import { useTranslation } from '../../../lib/use-translation';
import { spamScoreText } from '../lib/spam-lists';

/** A filtered message has no id of its own: its place in the list keys its row. */
type FilteredRow = SpamFiltered & { key: string };

/** The mail server's own name for the inbox, shown in the user's words. */
const INBOX = 'INBOX';

/**
 * What the filter marked as spam in the last days, newest first, as the mail server has it now
 * (the folder it is in, which its owner may have changed). `filtered` null: the mail server did
 * not answer, which is said rather than shown as "nothing filtered".
 */
export function SpamFilteredCard({
  domain,
  filtered,
  loading,
  failed,
  busy,
}: {
  domain: string;
  filtered: SpamFiltered[] | null;
  loading: boolean;
  failed: boolean;
  busy: boolean;
}) {
  const { t, i18n } = useTranslation();
  const rows = useMemo<FilteredRow[]>(
    () => (filtered ?? []).map((message, index) => ({ ...message, key: String(index) })),
    [filtered],
  );
  const columns: DataTableColumn<FilteredRow>[] = [
    {
      accessor: 'received',
      title: t('mail.spam.received'),
      render: (message) => (
        <Text size="sm">
          <time dateTime={new Date(message.received * 1000).toISOString()} data-testid="spam-filtered-received">
            {formatEpoch(message.received, i18n.language)}
          </time>
        </Text>
      ),
    },
    {
      accessor: 'user',
      title: t('mail.account'),
      render: (message) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {`${message.user}@${domain}`}
        </Text>
      ),
    },
    {
      accessor: 'from',
      title: t('mail.spam.from'),
      render: (message) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {message.from}
        </Text>
      ),
    },
    {
      accessor: 'subject',
      title: t('mail.spam.subject'),
      render: (message) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {message.subject || t('mail.spam.no_subject')}
        </Text>
      ),
    },
    {
      accessor: 'score',
      title: t('mail.spam.score'),
      render: (message) =>
        message.score === '' ? (
          <Badge variant="light" color="red" tt="none" data-testid="spam-filtered-blocked">
            {t('mail.spam.blocked_sender')}
          </Badge>
        ) : (
          <Text size="sm" data-testid="spam-filtered-score">
            {spamScoreText(message.score, i18n.language)}
          </Text>
        ),
    },
    {
      accessor: 'folder',
      title: t('mail.spam.folder'),
      render: (message) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {message.folder === INBOX ? t('mail.spam.inbox') : message.folder}
        </Text>
      ),
    },
  ];
  return (
    <ListCard
      title={t('mail.spam.filtered_title')}
      subtitle={
        <Text size="sm" c="dimmed">
          {t('mail.spam.filtered_intro', { days: SPAM_FILTERED_DAYS, max: SPAM_FILTERED_MAX })}
        </Text>
      }
    >
      {loading ? (
        <ListSkeleton testId="spam-filtered-skeleton" rows={2} />
      ) : filtered === null && !failed ? (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />} data-testid="spam-filtered-unknown">
          {t('mail.spam.filtered_unknown')}
        </Alert>
      ) : (
        <ListTable
          testId="spam-filtered"
          busy={busy}
          records={rows}
          columns={columns}
          emptyText={failed ? t('mail.load_error') : t('mail.spam.filtered_empty', { days: SPAM_FILTERED_DAYS })}
          idAccessor="key"
          verticalAlign="top"
          rowAttributes={(message) => ({ 'data-user': message.user })}
        />
      )}
    </ListCard>
  );
}
