import { Button, Group, Stack, Text } from '@mantine/core';
import { AppModal } from '../../../components/app-modal';
import { useTranslation } from '../../../lib/use-translation';

/**
 * A delete question that locks while its call runs (no close button, outside clicks and Escape
 * ignored, spec section 4); the caller closes it when the call answers, either way.
 */
export function ConfirmDeleteModal({
  opened,
  title,
  message,
  busy,
  onConfirm,
  onClose,
  testId,
}: {
  opened: boolean;
  title: string;
  message: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const close = () => {
    if (!busy) onClose();
  };
  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={title}
      closeOnClickOutside={!busy}
      withCloseButton={!busy}
      data-testid={testId}
      data-busy={busy ? 'true' : 'false'}
    >
      <Stack gap="md">
        <Text style={{ overflowWrap: 'anywhere' }}>{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy} data-autofocus>
            {t('main.cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={onConfirm} data-testid={`${testId}-confirm`}>
            {t('domain.delete')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
