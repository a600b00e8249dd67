import { PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRegisterPasskey } from '../api/passkey-register';
import { PasskeyNameField, passkeyNameError } from './passkey-name-field';

/** Adding a passkey: a name to tell it apart, the password, then the browser's own dialog. */
export function PasskeyAddModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const register = useRegisterPasskey();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: '', password: '' },
    validate: {
      name: (value) => passkeyNameError(value, t),
      password: (value) => (value ? null : t('validation.required')),
    },
  });
  const { reset } = form;
  useEffect(() => {
    if (opened) reset();
  }, [opened, reset]);

  const submit = form.onSubmit(async (values) => {
    try {
      const answer = await register.mutateAsync({ name: values.name.trim(), password: values.password });
      notifySuccess(answer.system.info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });

  return (
    <AppModal opened={opened} onClose={onClose} title={t('passkeys.add')} data-testid="passkey-add-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('passkeys.add_text')}</Text>
          <PasskeyNameField testId="passkey-name" key={form.key('name')} {...form.getInputProps('name')} />
          <PasswordInput
            label={t('preferences.actual_password')}
            autoComplete="current-password"
            required
            data-testid="passkey-password"
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <FormButtons
            submitting={register.isPending}
            onCancel={onClose}
            submitTestId="passkey-add-submit"
            submitLabel={t('passkeys.add_submit')}
          />
        </Stack>
      </form>
    </AppModal>
  );
}
