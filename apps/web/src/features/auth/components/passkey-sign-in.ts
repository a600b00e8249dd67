import type { LoginData } from '@panel247/contract/user';
import { useMutation } from '@tanstack/react-query';
import { getPasskeyAssertion } from '../../../lib/passkey-browser';
import type { LightForm } from '../../../lib/use-light-form';
import { loginPasskey, loginPasskeyOptions, passkeyLoginStart } from '../api/login-passkey';
import type { LoginValues } from './login-fields';

/**
 * The passkey ceremonies of the login, imported on click (with `@simplewebauthn/browser`): the
 * login route's first load carries none of it.
 */

/** The second step after the password, answered with one of the user's passkeys. */
export async function answerWithPasskey(loginToken: string): Promise<LoginData> {
  const { options } = await loginPasskeyOptions(loginToken);
  return loginPasskey({ loginToken, credential: await getPasskeyAssertion(options) });
}

export function useAnswerWithPasskey() {
  return useMutation({ mutationFn: answerWithPasskey });
}

/**
 * "Sign in with a passkey" from the login form: the same domain and user (not the password) and
 * captcha, then the browser's passkey with PIN or biometrics in place of password and code.
 * Undefined when something is missing (the form shows it); a refusal is thrown.
 */
export async function signInWithPasskey(input: {
  form: LightForm<LoginValues>;
  t: (key: string) => string;
  captcha: string;
  needsCaptcha: boolean;
  onCaptchaMissing: () => void;
}): Promise<LoginData | undefined> {
  const { form, captcha, needsCaptcha } = input;
  const domainName = form.values.domainName.trim();
  const username = form.values.username.trim();
  const errors: Record<string, string> = {};
  if (!domainName) errors.domainName = input.t('validation.required');
  if (!username) errors.username = input.t('validation.required');
  form.setErrors(errors);
  const noCaptcha = needsCaptcha && !captcha;
  if (noCaptcha) input.onCaptchaMissing();
  if (noCaptcha || Object.keys(errors).length > 0) return undefined;
  const { loginToken, options } = await passkeyLoginStart({ domainName, username, recaptcha_response: captcha });
  return loginPasskey({ loginToken, credential: await getPasskeyAssertion(options) });
}
