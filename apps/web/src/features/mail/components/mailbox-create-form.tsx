import { NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormButtons } from '../../../components/form-buttons';
import { PasswordField } from '../../../components/password-field';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/use-translation';
import { type MailboxFormValues, validateMailboxForm } from '../lib/mail-forms';

/** A new account: name (local part), password (or a generated one), optional quota in MiB. */
export function MailboxCreateForm({
  domain,
  submitting,
  onSubmit,
  onCancel,
}: {
  domain: string;
  submitting: boolean;
  onSubmit: (values: MailboxFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<MailboxFormValues>({
    mode: 'controlled',
    initialValues: { name: '', password: '', quota: '' },
    validateInputOnBlur: ['quota'],
    validate: (values) =>
      Object.fromEntries(Object.entries(validateMailboxForm(values)).map(([field, key]) => [field, t(key)])),
  });
  const name = form.getValues().name.trim();
  const submit = form.onSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      handleFormError(form, error);
    }
  });
  const password = form.getInputProps('password');
  return (
    <form onSubmit={submit} noValidate data-testid="mail-account-form">
      <Stack gap="md">
        <TextInput
          {...form.getInputProps('name')}
          onBlur={blurCheck(form, 'name')}
          label={t('mail.account_name')}
          description={t('mail.address_preview', { address: `${name || '…'}@${domain}` })}
          required
          maxLength={64}
          autoComplete="off"
          data-autofocus
          data-testid="mail-name"
        />
        <PasswordField
          label={t('mail.password')}
          value={form.getValues().password}
          error={password.error}
          onChange={(value) => form.setFieldValue('password', value)}
          onBlur={blurCheck(form, 'password')}
          testId="mail-password-input"
        />
        <NumberInput
          {...form.getInputProps('quota')}
          label={t('mail.quota')}
          description={t('mail.quota_hint')}
          min={1}
          step={100}
          allowDecimal={false}
          allowNegative={false}
          suffix=" MiB"
          data-testid="mail-quota"
        />
        <FormButtons submitting={submitting} onCancel={onCancel} submitTestId="mail-submit" />
      </Stack>
    </form>
  );
}
