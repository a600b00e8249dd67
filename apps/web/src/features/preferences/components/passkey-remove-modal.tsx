import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Passkey } from '@panel247/contract/passkey';
import { useEffect, useRef, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useRemovePasskey } from '../api/passkey-remove';

/**
 * Removing a passkey: the password and a current factor, typed (an app code or a recovery code)
 * or given by one of the user's passkeys (the browser asks for it).
 */
export function PasskeyRemoveModal({
  passkey,
  hasCodes,
  onClose,
}: {
  passkey: Passkey | null;
  /** TOTP is on: a code can confirm too. */
  hasCodes: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const remove = useRemovePasskey();
  // Which button submitted: read in the same click, before a state update would render.
  const viaRef = useRef<'code' | 'passkey'>('passkey');
  const [via, setVia] = useState<'code' | 'passkey'>('passkey');
  const choose = (value: 'code' | 'passkey') => {
    viaRef.current = value;
    setVia(value);
  };
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { password: '', code: '' },
    validate: {
      password: (value) => (value ? null : t('validation.required')),
      code: (value) => (viaRef.current === 'code' && !value.trim() ? t('validation.required') : null),
    },
  });
  const { reset } = form;
  useEffect(() => {
    if (passkey) reset();
  }, [passkey, reset]);

  const submit = form.onSubmit(async (values) => {
    if (!passkey) return;
    try {
      const answer = await remove.mutateAsync({
        id: passkey.id,
        password: values.password,
        code: values.code.trim(),
        withPasskey: viaRef.current === 'passkey',
      });
      notifySuccess(answer.system.info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });

  return (
    <AppModal
      opened={passkey !== null}
      onClose={onClose}
      title={t('passkeys.remove_title', { name: passkey?.name ?? '' })}
      data-testid="passkey-remove-modal"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('passkeys.remove_text')}</Text>
          <PasswordInput
            label={t('preferences.actual_password')}
            autoComplete="current-password"
            required
            data-autofocus
            data-testid="passkey-remove-password"
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          {hasCodes ? (
            <TextInput
              label={t('two_factor.code_or_recovery')}
              description={t('passkeys.code_or_passkey')}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              data-testid="passkey-remove-code"
              key={form.key('code')}
              {...form.getInputProps('code')}
            />
          ) : null}
          <Group justify="flex-end" wrap="wrap">
            <Button variant="default" onClick={onClose}>
              {t('main.cancel')}
            </Button>
            {hasCodes ? (
              <Button
                type="submit"
                color="red"
                variant="light"
                loading={remove.isPending && via === 'code'}
                onClick={() => choose('code')}
                data-testid="passkey-remove-with-code"
              >
                {t('passkeys.remove_with_code')}
              </Button>
            ) : null}
            <Button
              type="submit"
              color="red"
              loading={remove.isPending && via === 'passkey'}
              onClick={() => choose('passkey')}
              data-testid="passkey-remove-submit"
            >
              {t('passkeys.remove_with_passkey')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
