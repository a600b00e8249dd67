import { Button, Group } from '@mantine/core';
import { useTranslation } from '../lib/use-translation';

/** Cancel and submit at the foot of a dialog's form; submit is busy while the call runs. */
export function FormButtons({
  submitting,
  onCancel,
  submitTestId,
  submitLabel,
}: {
  submitting: boolean;
  onCancel: () => void;
  submitTestId: string;
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('main.cancel')}
      </Button>
      <Button type="submit" loading={submitting} data-testid={submitTestId}>
        {submitLabel ?? t('main.save')}
      </Button>
    </Group>
  );
}
