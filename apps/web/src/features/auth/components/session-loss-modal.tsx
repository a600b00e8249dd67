import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { LoginData } from '@panel247/contract/user';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useCallback, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { Captcha } from '../../../components/captcha';
import { useApp } from '../../../lib/app-context';
import { broadcast } from '../../../lib/cross-tab';
import { handleFormError } from '../../../lib/form-errors';
import { notifyError } from '../../../lib/notify';
import { clearSessionLost, useSessionLost } from '../../../lib/session-lost';
import { useLightForm } from '../../../lib/use-light-form';
import { useTranslation } from '../../../lib/use-translation';
import { useLogin } from '../api/login';
import { LoginFields, type LoginValues, loginValidators } from './login-fields';

const SecondFactorStep = lazy(() => import('./second-factor-step'));

function ReLoginForm() {
  const { t } = useTranslation();
  const { config, user } = useApp();
  const queryClient = useQueryClient();
  const login = useLogin();
  const [captcha, setCaptcha] = useState('');
  const [captchaReset, setCaptchaReset] = useState(0);
  const [captchaMissing, setCaptchaMissing] = useState(false);
  const [pending, setPending] = useState<LoginData | null>(null);
  const onCaptcha = useCallback((payload: string) => {
    setCaptcha(payload);
    if (payload) setCaptchaMissing(false);
  }, []);
  const form = useLightForm<LoginValues>(
    { domainName: user?.domainName ?? '', username: user?.user ?? '', password: '' },
    loginValidators(t),
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate()) return;
    const values = form.values;
    if (config.captcha.provider !== 'none' && !captcha) {
      setCaptchaMissing(true);
      return;
    }
    try {
      const data = await login.mutateAsync({ ...values, recaptcha_response: captcha });
      if (data.secondFactor && data.loginToken) {
        setPending(data);
        return;
      }
      await finish();
    } catch (error) {
      handleFormError(form, error);
      setCaptchaReset((n) => n + 1);
    }
  };

  const finish = async () => {
    const values = form.values;
    broadcast({ type: 'user.login' });
    const same =
      user &&
      user.user === values.username.trim() &&
      user.domainName.toLowerCase() === values.domainName.trim().toLowerCase();
    if (!same) {
      window.location.reload();
      return;
    }
    // Same account: reload the page's data but keep what the user was typing underneath.
    clearSessionLost();
    await queryClient.invalidateQueries();
  };

  // A passkey in place of password and code, where the browser can use one (a secure origin).
  const passkeys = window.isSecureContext && typeof window.PublicKeyCredential === 'function';
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const passkeyLogin = async () => {
    setPasskeyBusy(true);
    try {
      // The ceremony's code and @simplewebauthn/browser load on this click only.
      const { signInWithPasskey } = await import('./passkey-sign-in');
      const onCaptchaMissing = () => setCaptchaMissing(true);
      const data = await signInWithPasskey({
        form,
        t,
        captcha,
        needsCaptcha: config.captcha.provider !== 'none',
        onCaptchaMissing,
      });
      if (data) await finish();
    } catch (error) {
      notifyError(error);
    } finally {
      setPasskeyBusy(false);
      setCaptchaReset((n) => n + 1);
    }
  };

  if (pending?.loginToken) {
    return (
      <Stack gap="sm">
        <Suspense fallback={<Loader size="sm" role="status" aria-label={t('main.loading')} />}>
          <SecondFactorStep
            pending={pending}
            onDone={finish}
            onBack={() => {
              setPending(null);
              setCaptchaReset((n) => n + 1);
            }}
          />
        </Suspense>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t('session_lost.text')}</Text>
        <LoginFields form={form} autoFocus />
        <Captcha onPayload={onCaptcha} resetKey={captchaReset} />
        {captchaMissing ? (
          <Alert color="red" variant="light" role="alert" py="xs">
            {t('login.captcha_required')}
          </Alert>
        ) : null}
        {passkeys ? (
          <Button variant="default" fullWidth loading={passkeyBusy} onClick={passkeyLogin} data-testid="passkey-login">
            {t('login.passkey_sign_in')}
          </Button>
        ) : null}
        <Group justify="space-between">
          <Button variant="default" onClick={() => window.location.reload()} data-testid="session-lost-go-login">
            {t('session_lost.go_to_login')}
          </Button>
          <Button type="submit" loading={login.isPending} data-testid="session-lost-submit">
            {t('login.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Opens over the current page when the server says the session is gone (statusCode 101 or the
 * realtime session.ended). The page underneath stays mounted, so typed text survives.
 */
export default function SessionLossModal() {
  const { t } = useTranslation();
  const opened = useSessionLost();
  return (
    <AppModal
      opened={opened}
      onClose={() => {}}
      escapeMode="none"
      title={t('session_lost.title')}
      centered
      data-testid="session-lost-modal"
    >
      {opened ? <ReLoginForm /> : null}
    </AppModal>
  );
}
