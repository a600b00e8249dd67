import { Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { blurCheck } from '../lib/blur-check';
import { handleFormError } from '../lib/form-errors';
import { notifySuccess } from '../lib/notify';
import { useRightGuard } from '../lib/use-right-guard';
import { useTranslation } from '../lib/use-translation';
import { AppModal } from './app-modal';
import { FormButtons } from './form-buttons';
import { PasswordField } from './password-field';

export interface PasswordSubject {
  /** Remounts the form for another row. */
  key: string | number;
  /** What the row is, e.g. 'Account' or 'Database'. */
  kind: string;
  name: string;
}

function PasswordForm({
  subject,
  onSubmit,
  onClose,
  testIdPrefix,
}: {
  subject: PasswordSubject;
  onSubmit: (password: string) => Promise<readonly string[] | undefined>;
  onClose: () => void;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<{ password: string }>({
    mode: 'controlled',
    initialValues: { password: '' },
    validate: { password: (value) => (value === '' ? t('validation.required') : null) },
  });
  const password = form.getInputProps('password');
  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    try {
      notifySuccess(await onSubmit(values.password));
      onClose();
    } catch (error) {
      handleFormError(form, error);
    } finally {
      setSubmitting(false);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid={`${testIdPrefix}-password-form`}>
      <Stack gap="md">
        <Text size="sm">
          {subject.kind}:{' '}
          <Text component="span" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {subject.name}
          </Text>
        </Text>
        <PasswordField
          label={t('password.new')}
          value={form.getValues().password}
          error={password.error}
          onChange={(value) => form.setFieldValue('password', value)}
          onBlur={blurCheck(form, 'password')}
          testId={`${testIdPrefix}-password-input`}
          autoFocus
        />
        <FormButtons submitting={submitting} onCancel={onClose} submitTestId={`${testIdPrefix}-submit`} />
      </Stack>
    </form>
  );
}

/**
 * Change the password of an account or a database: a new one typed or generated. The server's
 * field error shows under the field; success toasts its message and closes. Opened without the
 * right (or losing it while open), it says 'no permission' and closes.
 */
export function PasswordChangeModal({
  subject,
  allowed,
  onSubmit,
  onClose,
  testIdPrefix,
}: {
  subject: PasswordSubject | null;
  allowed: boolean;
  onSubmit: (password: string) => Promise<readonly string[] | undefined>;
  onClose: () => void;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(subject !== null, allowed, onClose);
  return (
    <AppModal
      opened={subject !== null && shown}
      onClose={onClose}
      title={t('password.change_title')}
      data-testid={`${testIdPrefix}-password-modal`}
    >
      {subject ? (
        <PasswordForm
          key={subject.key}
          subject={subject}
          onSubmit={onSubmit}
          onClose={onClose}
          testIdPrefix={testIdPrefix}
        />
      ) : null}
    </AppModal>
  );
}
