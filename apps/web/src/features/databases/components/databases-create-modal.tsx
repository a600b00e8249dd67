import { Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useCreateDatabase } from '../../../api/create-database';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { PasswordField } from '../../../components/password-field';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';

function CreateForm({ serviceId, onClose }: { serviceId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateDatabase(serviceId);
  const form = useForm<{ password: string }>({
    mode: 'controlled',
    initialValues: { password: '' },
    validate: { password: (value) => (value === '' ? t('validation.required') : null) },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const { info } = await create.mutateAsync(values.password);
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="ddbb-create-form">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('ddbb.create_hint')}
        </Text>
        <PasswordField
          label={t('password.label')}
          value={form.getValues().password}
          error={form.getInputProps('password').error}
          onChange={(value) => form.setFieldValue('password', value)}
          onBlur={blurCheck(form, 'password')}
          testId="ddbb-password-input"
          autoFocus
        />
        <FormButtons
          submitting={create.isPending}
          onCancel={onClose}
          submitTestId="ddbb-submit"
          submitLabel={t('ddbb.create')}
        />
      </Stack>
    </form>
  );
}

/** A new database: its name and user come from the service, the password is typed or generated. */
export function DatabaseCreateModal({
  opened,
  onClose,
  serviceId,
  allowed,
}: {
  opened: boolean;
  onClose: () => void;
  serviceId: number;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(opened, allowed, onClose);
  return (
    <AppModal
      opened={opened && shown}
      onClose={onClose}
      title={t('ddbb.create_title')}
      size="lg"
      data-testid="ddbb-create-modal"
    >
      {opened ? <CreateForm serviceId={serviceId} onClose={onClose} /> : null}
    </AppModal>
  );
}
