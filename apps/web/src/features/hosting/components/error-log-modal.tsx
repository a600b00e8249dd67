import { Badge, Box, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { AppModal } from '../../../components/app-modal';
import { translateError } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useErrorLog } from '../api/get-error-log';

/**
 * The tail of the service's nginx and PHP error logs: one line each with its source, monospace,
 * in a scroll box the keyboard can scroll (it takes the focus), oldest first.
 */
export function ErrorLogModal({
  opened,
  onClose,
  serviceId,
  reference,
}: {
  opened: boolean;
  onClose: () => void;
  serviceId: number;
  reference: string;
}) {
  const { t } = useTranslation();
  const log = useErrorLog(serviceId, opened);
  const lines = log.data ?? [];
  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      title={t('hosting.error_log_title', { name: reference })}
      size="xl"
      data-testid="hosting-log-modal"
    >
      <Stack gap="md">
        {log.isPending ? (
          <Stack gap="xs" role="status" aria-label={t('main.loading')}>
            <Skeleton height={20} />
            <Skeleton height={20} />
            <Skeleton height={20} />
          </Stack>
        ) : log.isError ? (
          <Text c="red.8" size="sm" data-testid="hosting-log-error">
            {translateError(log.error)}
          </Text>
        ) : lines.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid="hosting-log-empty">
            {t('hosting.error_log_empty')}
          </Text>
        ) : (
          <Box
            component="ol"
            tabIndex={0}
            aria-label={t('hosting.error_log_lines', { count: lines.length })}
            data-testid="hosting-log-lines"
            m={0}
            p="xs"
            style={{
              listStyle: 'none',
              maxHeight: '60vh',
              overflow: 'auto',
              border: '1px solid var(--mantine-color-default-border)',
              borderRadius: 'var(--mantine-radius-sm)',
            }}
          >
            {lines.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: log lines repeat; their order is their identity
              <Group key={index} component="li" gap="xs" wrap="nowrap" align="flex-start" py={2}>
                <Badge size="sm" variant="light" color={line.source === 'php' ? 'violet' : 'blue'} miw={56}>
                  {line.source}
                </Badge>
                <Text size="xs" ff="monospace" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {line.line}
                </Text>
              </Group>
            ))}
          </Box>
        )}
        <Group justify="flex-end">
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            loading={log.isFetching}
            onClick={() => void log.refetch()}
            data-testid="hosting-log-refresh"
          >
            {t('hosting.error_log_refresh')}
          </Button>
          <Button onClick={onClose} data-autofocus>
            {t('main.close')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
