import type {
  LoginPasskeyInput,
  PasskeyLoginStartData,
  PasskeyLoginStartInput,
  PasskeyOptionsData,
} from '@panel247/contract/passkey';
import { API } from '@panel247/contract/routes';
import type { LoginData } from '@panel247/contract/user';
import { api } from '../../../lib/api-client';

/** The second step by passkey: the challenge for the pending login's passkeys. */
export function loginPasskeyOptions(loginToken: string): Promise<PasskeyOptionsData> {
  return api<PasskeyOptionsData>(
    API.userLoginPasskeyOptions,
    { loginToken },
    { method: 'POST', ignoreSessionLost: true },
  );
}

/** A login by passkey alone: domain, user and the captcha answer first. */
export function passkeyLoginStart(
  input: PasskeyLoginStartInput & { recaptcha_response: string },
): Promise<PasskeyLoginStartData> {
  return api<PasskeyLoginStartData>(API.userLoginPasskeyStart, input, { method: 'POST', ignoreSessionLost: true });
}

/** The signed challenge: a session when the passkey is accepted. */
export function loginPasskey(input: LoginPasskeyInput): Promise<LoginData> {
  return api<LoginData>(API.userLoginPasskey, input, { method: 'POST', ignoreSessionLost: true });
}
