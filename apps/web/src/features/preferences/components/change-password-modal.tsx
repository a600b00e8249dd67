import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PASSWORD_MIN_LENGTH } from '@panel247/contract/user';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AppModal } from '../../../components/app-modal';
import { broadcast } from '../../../lib/cross-tab';
import { forgetSession } from '../../../lib/forget-session';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { paths } from '../../../lib/resource-paths';
import { expectSessionEnd } from '../../../lib/session-lost';
import { useTranslation } from '../../../lib/use-translation';
import { useChangePassword } from '../api/change-password';

interface Values {
  actualPassword: string;
  password: string;
}

function ChangePasswordForm({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const change = useChangePassword();
  const form = useForm<Values>({
    mode: 'uncontrolled',
    initialValues: { actualPassword: '', password: '' },
    validate: {
      actualPassword: (value) => (value ? null : t('validation.required')),
      password: (value) =>
        !value
          ? t('validation.required')
          : value.length < PASSWORD_MIN_LENGTH
            ? t('validation.password_too_short', { min: PASSWORD_MIN_LENGTH })
            : null,
    },
  });

  const submit = form.onSubmit(async (values) => {
    // A successful change ends the session on the server: that end is expected, not a "loss".
    expectSessionEnd(true);
    try {
      const system = await change.mutateAsync(values);
      notifySuccess(system.info);
      broadcast({ type: 'user.logout' });
      forgetSession(queryClient);
      navigate(paths.login, { replace: true });
    } catch (error) {
      expectSessionEnd(false);
      handleFormError(form, error);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <PasswordInput
          label={t('preferences.actual_password')}
          required
          autoComplete="current-password"
          data-autofocus
          key={form.key('actualPassword')}
          {...form.getInputProps('actualPassword')}
        />
        <PasswordInput
          label={t('preferences.new_password')}
          description={t('preferences.password_hint', { min: PASSWORD_MIN_LENGTH })}
          required
          autoComplete="new-password"
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('main.cancel')}
          </Button>
          <Button type="submit" loading={change.isPending} data-testid="change-password-submit">
            {t('main.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      title={t('preferences.change_password')}
      data-testid="change-password-modal"
    >
      <ChangePasswordForm onCancel={onClose} />
    </AppModal>
  );
}
