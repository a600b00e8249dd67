import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ConsoleLoginData } from '@panel247/contract/console';
import { TOTP_CODE_PATTERN } from '@panel247/contract/two-factor-rules';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { TotpCodeInput, TotpEnrolment } from '../../../components/totp-enrolment';
import { handleFormError } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/use-translation';
import { useConsoleLogin } from '../api/console-login';
import { staffInfoQueryKey } from '../api/get-staff-info';

type Values = { username: string; password: string; code: string };
/** The step shown: the password, the app's code, or setting the app up (its secret) and its first code. */
type Step = { kind: 'password' } | { kind: 'code' } | { kind: 'setup'; setup: NonNullable<ConsoleLoginData['setup']> };

/**
 * The console's sign-in: user and password, then always a second factor: the app's code, or, at
 * the first sign-in (or after `panel staff reset-2fa`), the app set up from the QR code or the
 * secret and its first code. Each step sends the user and password again with the code.
 */
export function ConsoleLoginForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const login = useConsoleLogin();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  // (not the login route's light form: sharing it would split it out of that route's chunk)
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { username: '', password: '', code: '' },
    // each step checks its own fields: the password's step has no code yet
    validate: (values) =>
      step.kind === 'password'
        ? {
            username: values.username.trim() ? null : t('validation.required'),
            password: values.password ? null : t('validation.required'),
          }
        : { code: TOTP_CODE_PATTERN.test(values.code.trim()) ? null : t('two_factor.code_six') },
  });
  const codeInput = useRef<HTMLInputElement>(null);
  // The code's field takes the focus as its step appears, so the code can be typed at once.
  useEffect(() => {
    if (step.kind !== 'password') codeInput.current?.focus();
  }, [step.kind]);

  const submit = form.onSubmit(async ({ username, password, code }) => {
    try {
      const answer = await login.mutateAsync({
        username: username.trim(),
        password,
        code: step.kind === 'password' ? '' : code.trim(),
      });
      if (answer.step === 'done') {
        // the page goes on to the services once it knows who is signed in
        await queryClient.invalidateQueries({ queryKey: staffInfoQueryKey });
      } else if (answer.step === 'setup' && answer.setup) {
        setStep({ kind: 'setup', setup: answer.setup });
      } else {
        setStep({ kind: 'code' });
      }
    } catch (error) {
      handleFormError(form, error);
      codeInput.current?.select();
    }
  });

  const back = () => {
    form.clearErrors();
    form.setFieldValue('code', '');
    setStep({ kind: 'password' });
  };

  if (step.kind === 'password') {
    return (
      <form onSubmit={submit} noValidate data-testid="console-login-form">
        <Stack gap="md">
          <TextInput
            label={t('console.login.username')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            data-autofocus
            data-testid="console-login-username"
            {...form.getInputProps('username')}
          />
          <PasswordInput
            label={t('console.login.password')}
            autoComplete="current-password"
            required
            data-testid="console-login-password"
            {...form.getInputProps('password')}
          />
          <Button type="submit" fullWidth loading={login.isPending} data-testid="console-login-submit">
            {t('console.login.submit')}
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <form onSubmit={submit} noValidate data-testid={`console-login-step-${step.kind}`}>
      <Stack gap="sm">
        {step.kind === 'setup' ? (
          <>
            <Text size="sm" fw={500}>
              {t('console.login.setup_text')}
            </Text>
            <TotpEnrolment qr={step.setup.qr} secret={step.setup.secret} />
          </>
        ) : (
          <Text size="sm">{t('console.login.code_text')}</Text>
        )}
        <TotpCodeInput ref={codeInput} data-testid="console-login-code" {...form.getInputProps('code')} />
        <Group justify="space-between">
          <Button variant="default" onClick={back} data-testid="console-login-back">
            {t('console.login.back')}
          </Button>
          <Button type="submit" loading={login.isPending} data-testid="console-login-code-submit">
            {t('console.login.code_submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
