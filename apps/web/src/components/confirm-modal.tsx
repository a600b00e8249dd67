import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from '../lib/use-translation';
import { AppModal } from './app-modal';

/**
 * A yes/no question before a call (a delete, a toggle); it stays open (busy) until the call
 * answers. Cancel takes the focus, so Enter never confirms by accident.
 */
export function ConfirmModal({
  opened,
  title,
  message,
  confirmLabel,
  color = 'red.8',
  busy,
  onConfirm,
  onClose,
  testId,
  confirmTestId = `${testId}-confirm`,
}: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  /** The confirm button's colour: dark red by default (readable white text); null for the theme's. */
  color?: string | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId: string;
  confirmTestId?: string;
}) {
  const { t } = useTranslation();
  return (
    <AppModal opened={opened} onClose={onClose} title={title} data-testid={testId}>
      <Stack gap="md">
        <Text style={{ overflowWrap: 'anywhere' }}>{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('main.cancel')}
          </Button>
          <Button color={color ?? undefined} loading={busy} onClick={onConfirm} data-testid={confirmTestId}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
