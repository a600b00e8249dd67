import { Button, Group, Stack, Text } from '@mantine/core';
import { AppModal } from '../../../components/app-modal';
import { useTranslation } from '../../../lib/use-translation';

export interface InstallFailure {
  /** The error's name (a failed job's `error.name`), the dialog's title. */
  title: string;
  message: string;
}

/** An install that failed (spec section 8): its name as the title, its message and 'Accept'. */
export function InstallErrorModal({ failure, onAccept }: { failure: InstallFailure | null; onAccept: () => void }) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={failure !== null}
      onClose={onAccept}
      title={failure?.title}
      size="md"
      data-testid="installer-error-modal"
    >
      <Stack gap="md">
        <Text
          size="sm"
          style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
          data-testid="installer-error-message"
        >
          {failure?.message}
        </Text>
        <Group justify="flex-end">
          <Button onClick={onAccept} data-autofocus data-testid="installer-error-accept">
            {t('installer.accept')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
