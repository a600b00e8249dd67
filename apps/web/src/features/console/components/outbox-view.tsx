import { Badge, Stack, Switch, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ListCard, ListPage } from '../../../components/list-page';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { formatEpoch } from '../../../lib/dates';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useTranslation } from '../../../lib/use-translation';
import { type OutboxMessage, useOutbox } from '../api/list-outbox';
import { useConsoleTitle } from '../lib/use-console-title';

/** The messages the panel sent or could not send (contact, forgotten password, security mail), newest first. */
export function OutboxView() {
  const { t, i18n } = useTranslation();
  useConsoleTitle(t('console.nav.outbox'));
  const [unsentOnly, setUnsentOnly] = useState(false);
  const outbox = useOutbox(unsentOnly);
  useErrorToast(outbox.error);
  const when = (seconds: number) => formatEpoch(seconds, i18n.language);

  const columns: DataTableColumn<OutboxMessage>[] = [
    {
      accessor: 'subject',
      title: t('console.outbox.subject'),
      render: (message) => (
        <Stack gap={2}>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {message.subject}
          </Text>
          <Text size="xs" c="dimmed">
            {message.kind}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'to',
      title: t('console.outbox.to'),
      render: (message) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {message.to}
        </Text>
      ),
    },
    { accessor: 'createdAt', title: t('console.outbox.created'), render: (message) => when(message.createdAt) },
    {
      accessor: 'sentAt',
      title: t('console.outbox.state'),
      render: (message) => (
        <Stack gap={2} align="flex-start">
          <Badge variant="light" color={message.sentAt === null ? 'orange' : 'green'} data-testid="outbox-state">
            {t(message.sentAt === null ? 'console.outbox.unsent' : 'console.outbox.sent')}
          </Badge>
          {message.sentAt !== null ? (
            <Text size="xs" c="dimmed">
              {when(message.sentAt)}
            </Text>
          ) : null}
          {message.error ? (
            <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }} data-testid="outbox-error">
              {message.error}
            </Text>
          ) : null}
        </Stack>
      ),
    },
  ];

  const emptyText = outbox.isError
    ? t('console.outbox.load_error')
    : t(unsentOnly ? 'console.outbox.empty_unsent' : 'console.outbox.empty');

  return (
    <ListPage testId="console-outbox-view" title={t('console.outbox.title')}>
      <ListCard
        title={t('console.outbox.list_title')}
        actions={
          <Switch
            label={t('console.outbox.unsent_only')}
            checked={unsentOnly}
            onChange={(event) => setUnsentOnly(event.currentTarget.checked)}
            data-testid="outbox-unsent-only"
          />
        }
      >
        {outbox.isPending ? (
          <ListSkeleton rows={3} height={32} testId="console-outbox-skeleton" />
        ) : (
          <ListTable
            testId="console-outbox"
            busy={outbox.isFetching}
            records={outbox.data ?? []}
            columns={columns}
            emptyText={emptyText}
            verticalAlign="top"
            rowAttributes={(message) => ({
              'data-sent': message.sentAt === null ? '0' : '1',
              'data-kind': message.kind,
            })}
          />
        )}
      </ListCard>
    </ListPage>
  );
}
