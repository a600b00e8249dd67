import { ActionIcon, Button, Group, Paper, Progress, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { formatBytes } from '../../../lib/format-bytes';
import { translateError } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import type { UploadItem } from '../lib/use-uploads';

function percent(item: UploadItem): number {
  if (item.state === 'done') return 100;
  return item.size === 0 ? 0 : Math.round((item.received / item.size) * 100);
}

function StateText({ item }: { item: UploadItem }) {
  const { t, i18n } = useTranslation();
  const amount = t('files.upload_progress', {
    sent: formatBytes(item.received, i18n.language),
    total: formatBytes(item.size, i18n.language),
  });
  const text: Record<UploadItem['state'], string> = {
    queued: t('files.upload_queued'),
    sending: amount,
    done: t('files.upload_done'),
    cancelled: t('files.upload_cancelled'),
    failed: typeof item.error === 'string' ? t(item.error) : translateError(item.error),
  };
  return (
    <Text size="xs" c={item.state === 'failed' ? 'red.8' : 'dimmed'} data-testid="files-upload-state">
      {text[item.state]}
    </Text>
  );
}

/** Each upload with its progress bar and state; the ones still to finish can be cancelled. */
export function UploadList({
  items,
  onCancel,
  onClear,
}: {
  items: UploadItem[];
  onCancel: (key: number) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  const anyFinished = items.some((item) => item.state !== 'queued' && item.state !== 'sending');
  return (
    <Paper withBorder radius="sm" p="sm" data-testid="files-uploads">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} size="h6">
            {t('files.uploads_title')}
          </Title>
          {anyFinished ? (
            <Button variant="subtle" size="compact-sm" onClick={onClear} data-testid="files-uploads-clear">
              {t('files.clear_uploads')}
            </Button>
          ) : null}
        </Group>
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((item) => {
            const active = item.state === 'queued' || item.state === 'sending';
            const cancelLabel = t('files.cancel_upload_item', { name: item.name });
            return (
              <li key={item.key} data-name={item.name} data-state={item.state} data-testid="files-upload-item">
                <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                  <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                    <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {item.name}
                    </Text>
                    <Progress
                      value={percent(item)}
                      color={item.state === 'failed' ? 'red' : item.state === 'done' ? 'green' : undefined}
                      aria-label={t('files.upload_progress_label', { name: item.name })}
                    />
                    <StateText item={item} />
                  </Stack>
                  {active ? (
                    <Tooltip label={cancelLabel} withArrow>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={cancelLabel}
                        onClick={() => onCancel(item.key)}
                        data-testid="files-upload-cancel"
                      >
                        <IconX size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  ) : null}
                </Group>
              </li>
            );
          })}
        </Stack>
      </Stack>
    </Paper>
  );
}
