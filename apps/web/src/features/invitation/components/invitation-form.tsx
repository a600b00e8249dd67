import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { InvitationAcceptData } from '@panel247/contract/account-users';
import { PASSWORD_MIN_LENGTH } from '@panel247/contract/user';
import { handleFormError } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/use-translation';
import { useAcceptInvitation } from '../api/accept-invitation';

interface Values {
  password: string;
  repeat: string;
}

/** The new password twice (they must match, at least the minimum length), then the call. */
export function InvitationForm({ token, onDone }: { token: string; onDone: (data: InvitationAcceptData) => void }) {
  const { t } = useTranslation();
  const accept = useAcceptInvitation();
  const form = useForm<Values>({
    mode: 'uncontrolled',
    initialValues: { password: '', repeat: '' },
    validate: {
      password: (value) =>
        !value
          ? t('validation.required')
          : value.length < PASSWORD_MIN_LENGTH
            ? t('validation.password_too_short', { min: PASSWORD_MIN_LENGTH })
            : null,
      repeat: (value, values) =>
        !value ? t('validation.required') : value === values.password ? null : t('invitation.mismatch'),
    },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      onDone(await accept.mutateAsync({ token, password: values.password }));
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="invitation-form">
      <Stack gap="sm">
        <PasswordInput
          label={t('preferences.new_password')}
          description={t('preferences.password_hint', { min: PASSWORD_MIN_LENGTH })}
          required
          autoComplete="new-password"
          maxLength={128}
          data-autofocus
          data-testid="invitation-password"
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t('invitation.repeat')}
          required
          autoComplete="new-password"
          maxLength={128}
          data-testid="invitation-repeat"
          key={form.key('repeat')}
          {...form.getInputProps('repeat')}
        />
        <Button type="submit" fullWidth loading={accept.isPending} data-testid="invitation-submit">
          {t('invitation.submit')}
        </Button>
      </Stack>
    </form>
  );
}
