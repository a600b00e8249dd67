import { Button, Card, Loader, Stack, Text, Title } from '@mantine/core';
import type { LoginData } from '@panel247/contract/user';
import { type FormEvent, lazy, Suspense, useCallback, useState } from 'react';
import { Captcha } from '../../../components/captcha';
import { useApp } from '../../../lib/app-context';
import { broadcast } from '../../../lib/cross-tab';
import { handleFormError } from '../../../lib/form-errors';
import { notifyError } from '../../../lib/notify';
import { setPostLoginTarget } from '../../../lib/post-login';
import { paths } from '../../../lib/resource-paths';
import { expectSessionEnd } from '../../../lib/session-lost';
import { useLightForm } from '../../../lib/use-light-form';
import { useTranslation } from '../../../lib/use-translation';
import { getLoginTarget } from '../api/get-login-target';
import { useLogin } from '../api/login';
import { EMPTY_LOGIN, LoginFields, type LoginValues, loginValidators } from './login-fields';

// Only a user with a second factor needs it: fetched after the password, off the first load.
const SecondFactorStep = lazy(() => import('./second-factor-step'));

export function LoginForm() {
  const { t } = useTranslation();
  const { config, refreshSession } = useApp();
  const login = useLogin();
  const [captcha, setCaptcha] = useState('');
  const [captchaReset, setCaptchaReset] = useState(0);
  const [captchaMissing, setCaptchaMissing] = useState(false);
  // The password step's answer when a second factor is asked for.
  const [pending, setPending] = useState<LoginData | null>(null);
  const form = useLightForm<LoginValues>(EMPTY_LOGIN, loginValidators(t));
  const needsCaptcha = config.captcha.provider !== 'none';
  const onCaptcha = useCallback((payload: string) => {
    setCaptcha(payload);
    if (payload) setCaptchaMissing(false);
  }, []);

  const finish = async (data: LoginData) => {
    expectSessionEnd(false);
    // A brand that requires two factors sends a user without one to set it up first.
    setPostLoginTarget(data.setupSecondFactor ? paths.preferences : await getLoginTarget(data.domainID));
    broadcast({ type: 'user.login' });
    await refreshSession();
  };

  const back = () => {
    setPending(null);
    // The first step's captcha answer was spent on the password.
    setCaptchaReset((n) => n + 1);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate()) return;
    const values = form.values;
    if (needsCaptcha && !captcha) {
      setCaptchaMissing(true);
      return;
    }
    try {
      const data = await login.mutateAsync({ ...values, recaptcha_response: captcha });
      if (data.secondFactor && data.loginToken) {
        setPending(data);
        return;
      }
      await finish(data);
    } catch (error) {
      handleFormError(form, error);
      // An ALTCHA payload is single-use: ask for a new one after a refused attempt.
      setCaptchaReset((n) => n + 1);
    }
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
      const data = await signInWithPasskey({ form, t, captcha, needsCaptcha, onCaptchaMissing });
      if (data) await finish(data);
    } catch (error) {
      notifyError(error);
    } finally {
      setPasskeyBusy(false);
      setCaptchaReset((n) => n + 1);
    }
  };

  return (
    <Card withBorder shadow="sm" padding="xl" radius="md" component="section" aria-labelledby="login-title">
      {pending?.loginToken ? (
        <Stack gap="md">
          <Title order={1} size="h3" id="login-title">
            {t('login.title')}
          </Title>
          <Suspense fallback={<Loader size="sm" role="status" aria-label={t('main.loading')} />}>
            <SecondFactorStep pending={pending} onDone={finish} onBack={back} />
          </Suspense>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Title order={1} size="h3" id="login-title">
              {t('login.title')}
            </Title>
            <LoginFields form={form} />
            <Captcha onPayload={onCaptcha} resetKey={captchaReset} />
            {captchaMissing ? (
              // Plain text rather than Mantine's Alert, whose chunk the login route would load for this line.
              <Text c="var(--mantine-color-error)" size="sm" role="alert">
                {t('login.captcha_required')}
              </Text>
            ) : null}
            <Button type="submit" fullWidth loading={login.isPending} data-testid="login-submit">
              {t('login.submit')}
            </Button>
            {passkeys ? (
              <Button
                variant="default"
                fullWidth
                loading={passkeyBusy}
                onClick={passkeyLogin}
                data-testid="passkey-login"
              >
                {t('login.passkey_sign_in')}
              </Button>
            ) : null}
          </Stack>
        </form>
      )}
    </Card>
  );
}
