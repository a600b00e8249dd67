import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { ApiError } from './api-client';

/**
 * The browser's side of a passkey ceremony. `@simplewebauthn/browser` is imported on use (a click),
 * so no route's first load carries it; the answer goes to the server as the JSON text the contract
 * expects in its `credential` field. The browser's refusals become errors with a translated text,
 * so callers show them like any failed call (`notifyError`, `handleFormError`).
 */
export async function createPasskeyCredential(options: object): Promise<string> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  try {
    return JSON.stringify(await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON }));
  } catch (error) {
    throw asShownError(error);
  }
}

export async function getPasskeyAssertion(options: object): Promise<string> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  try {
    return JSON.stringify(await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON }));
  } catch (error) {
    throw asShownError(error);
  }
}

/** This browser can use passkeys here (an insecure origin or an old browser cannot). */
export function passkeysAvailable(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function';
}

/**
 * The browser's refusal (the person cancelled, it timed out, this device already has one) as an
 * error whose message is an i18n key: the server said nothing about it.
 */
function asShownError(error: unknown): ApiError {
  // @simplewebauthn/browser names its WebAuthnError after the browser's DOMException.
  const name = error instanceof Error ? error.name : '';
  const key =
    name === 'NotAllowedError' || name === 'AbortError'
      ? 'login.passkey_cancelled'
      : name === 'InvalidStateError'
        ? 'passkeys.already_here'
        : 'login.passkey_failed';
  return new ApiError(key, 0, null);
}
