import { Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ConsoleService } from '@panel247/contract/console';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useChangeService } from '../api/change-service';

/** The reason's length the server takes (the contract's suspend reason). */
const REASON_MAX = 200;

function SuspendForm({ service, onClose }: { service: ConsoleService; onClose: () => void }) {
  const { t } = useTranslation();
  const change = useChangeService();
  const form = useForm({ mode: 'controlled', initialValues: { reason: '' } });
  const submit = form.onSubmit(async ({ reason }) => {
    try {
      const { info } = await change.mutateAsync({ kind: 'suspend', domain: service.domain, reason: reason.trim() });
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="suspend-form">
      <Stack gap="md">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('console.suspend.text', { domain: service.domain })}
        </Text>
        <TextInput
          label={t('console.suspend.reason')}
          description={t('console.suspend.reason_hint')}
          maxLength={REASON_MAX}
          data-autofocus
          data-testid="suspend-reason"
          {...form.getInputProps('reason')}
        />
        <FormButtons
          submitting={change.isPending}
          onCancel={onClose}
          submitTestId="suspend-submit"
          submitLabel={t('console.services.suspend')}
        />
      </Stack>
    </form>
  );
}

/** Suspending a service: its sites answer 503 and its logins are refused, with the reason given here. */
export function SuspendModal({ service, onClose }: { service: ConsoleService | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={service !== null}
      onClose={onClose}
      title={t('console.suspend.title')}
      data-testid="suspend-modal"
    >
      {service ? <SuspendForm service={service} onClose={onClose} /> : null}
    </AppModal>
  );
}
