import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { LoginData } from '@panel247/contract/user';
import { type FormEvent, useEffect, useRef } from 'react';
import { handleFormError } from '../../../lib/form-errors';
import { notifyError } from '../../../lib/notify';
import { useLightForm } from '../../../lib/use-light-form';
import { useTranslation } from '../../../lib/use-translation';
import { useLoginCode } from '../api/login-code';
import { useAnswerWithPasskey } from './passkey-sign-in';

/**
 * The login's second step, shown in place of the password fields when the server asks for a
 * factor: a code (TOTP or recovery), a passkey, or either. Loaded only then (a dynamic import), so
 * the login route's first load does not grow.
 */
export default function SecondFactorStep({
  pending,
  onDone,
  onBack,
}: {
  pending: LoginData;
  onDone: (data: LoginData) => Promise<void> | void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const send = useLoginCode();
  const input = useRef<HTMLInputElement>(null);
  const answer = useAnswerWithPasskey();
  const loginToken = pending.loginToken ?? '';
  const codes = pending.secondFactor === 'totp';
  const passkey = pending.passkey === true || pending.secondFactor === 'passkey';
  const form = useLightForm(
    { code: '' },
    { code: (value: string) => (value.trim() ? null : t('validation.required')) },
  );

  useEffect(() => input.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate()) return;
    try {
      await onDone(await send.mutateAsync({ loginToken, code: form.values.code.trim() }));
    } catch (error) {
      handleFormError(form, error);
      input.current?.select();
    }
  };

  const usePasskey = async () => {
    try {
      await onDone(await answer.mutateAsync(loginToken));
    } catch (error) {
      notifyError(error);
    }
  };

  const passkeyButton = passkey ? (
    <Button
      variant={codes ? 'light' : 'filled'}
      fullWidth
      loading={answer.isPending}
      onClick={usePasskey}
      data-testid="login-passkey"
    >
      {t('login.passkey_use')}
    </Button>
  ) : null;

  if (!codes) {
    return (
      <Stack gap="sm" data-testid="second-factor-step">
        <Text size="sm">{t('login.passkey_text')}</Text>
        {passkeyButton}
        <Group>
          <Button variant="default" onClick={onBack} data-testid="login-code-back">
            {t('login.code_back')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate data-testid="second-factor-step">
      <Stack gap="sm">
        <Text size="sm">{t('login.code_text')}</Text>
        <TextInput
          ref={input}
          label={t('login.code')}
          description={t('login.code_hint')}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          required
          data-testid="login-code"
          {...form.inputProps('code')}
        />
        <Group justify="space-between">
          <Button variant="default" onClick={onBack} data-testid="login-code-back">
            {t('login.code_back')}
          </Button>
          <Button type="submit" loading={send.isPending} data-testid="login-code-submit">
            {t('login.code_submit')}
          </Button>
        </Group>
        {passkeyButton}
      </Stack>
    </form>
  );
}
