import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useDisableTwoFactor } from '../api/two-factor-disable';
import { useRegenerateRecoveryCodes } from '../api/two-factor-recovery-codes';
import { RecoveryCodesList } from './recovery-codes-list';

export type ReauthAction = 'disable' | 'recovery';

/** Turning the factor off or new recovery codes: the password and a current code first. */
export function TwoFactorReauthModal({ action, onClose }: { action: ReauthAction | null; onClose: () => void }) {
  const { t } = useTranslation();
  const disable = useDisableTwoFactor();
  const regenerate = useRegenerateRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { password: '', code: '' },
    validate: {
      password: (value) => (value ? null : t('validation.required')),
      code: (value) => (value.trim() ? null : t('validation.required')),
    },
  });
  const { reset } = form;
  useEffect(() => {
    if (action) {
      reset();
      setCodes(null);
    }
  }, [action, reset]);

  const submit = form.onSubmit(async (values) => {
    const input = { password: values.password, code: values.code.trim() };
    try {
      if (action === 'disable') {
        notifySuccess((await disable.mutateAsync(input)).system.info);
        onClose();
      } else {
        const answer = await regenerate.mutateAsync(input);
        notifySuccess(answer.system.info);
        setCodes(answer.data.recoveryCodes);
      }
    } catch (error) {
      handleFormError(form, error);
    }
  });

  return (
    <AppModal
      opened={action !== null}
      onClose={onClose}
      escapeMode={codes ? 'none' : 'double'}
      title={t(action === 'disable' ? 'two_factor.turn_off' : 'two_factor.new_codes')}
      data-testid="two-factor-reauth-modal"
    >
      {codes ? (
        <Stack gap="md">
          <RecoveryCodesList codes={codes} />
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="two-factor-done">
              {t('two_factor.done')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">{t('two_factor.reauth_text')}</Text>
            <PasswordInput
              label={t('preferences.actual_password')}
              autoComplete="current-password"
              required
              data-autofocus
              data-testid="two-factor-reauth-password"
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
            <TextInput
              label={t('two_factor.code_or_recovery')}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              required
              data-testid="two-factor-reauth-code"
              key={form.key('code')}
              {...form.getInputProps('code')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('main.cancel')}
              </Button>
              <Button
                type="submit"
                color={action === 'disable' ? 'red' : undefined}
                loading={disable.isPending || regenerate.isPending}
                data-testid="two-factor-reauth-submit"
              >
                {t(action === 'disable' ? 'two_factor.turn_off' : 'two_factor.new_codes')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </AppModal>
  );
}
