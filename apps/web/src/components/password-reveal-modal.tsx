import { Code, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { notifyError } from '../lib/notify';
import { useTranslation } from '../lib/use-translation';
import { AppModal } from './app-modal';
import { CopyButton } from './copy-button';

/** The part of a TanStack query result the dialog reads: the item read again, with its password. */
export interface PasswordQuery {
  data: { password?: string } | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
}

/**
 * Shows a stored password (FTP account, database) read when the dialog opens, with a copy button.
 * The caller owns the query (the list never carries passwords, so the item is read again); this
 * reports its error and draws the three states.
 */
export function PasswordRevealModal({
  opened,
  onClose,
  kind,
  name,
  query,
  testId,
}: {
  opened: boolean;
  onClose: () => void;
  kind: string;
  name: string;
  query: PasswordQuery;
  testId: string;
}) {
  const { t } = useTranslation();
  const { error, isPending: loading, isError: failed } = query;
  const password = query.data?.password;
  useEffect(() => {
    if (error) notifyError(error);
  }, [error]);
  return (
    <AppModal opened={opened} onClose={onClose} title={t('password.reveal_title')} data-testid={testId}>
      <Stack gap="md">
        <Text size="sm">
          {kind}:{' '}
          <Text component="span" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
        </Text>
        {loading ? (
          <Loader size="sm" role="status" aria-label={t('main.loading')} />
        ) : failed || password === undefined ? (
          <Text c="red" size="sm" role="alert">
            {t('password.reveal_failed')}
          </Text>
        ) : (
          <Group gap="xs" wrap="nowrap" align="center">
            <Text size="sm">{t('password.label')}:</Text>
            <Code fz="md" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }} data-testid={`${testId}-value`}>
              {password}
            </Code>
            <CopyButton value={password} label={t('password.copy')} />
          </Group>
        )}
      </Stack>
    </AppModal>
  );
}
