import 'altcha/external';
import 'altcha/altcha.css';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import ShaWorker from 'altcha/workers/sha?worker';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../lib/use-translation';
import { type CarriedFocus, useCarriedFocus } from './carried-focus';

// The CSP-friendly build ships no workers: register the proof-of-work ones, served from 'self'.
for (const name of ['SHA-256', 'SHA-384', 'SHA-512']) globalThis.$altcha.algorithms.set(name, () => new ShaWorker());
for (const name of ['PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512']) {
  globalThis.$altcha.algorithms.set(name, () => new Pbkdf2Worker());
}

const STRING_KEYS = [
  'ariaLinkLabel',
  'enterCode',
  'enterCodeAria',
  'error',
  'expired',
  'footer',
  'getAudioChallenge',
  'label',
  'loading',
  'reload',
  'verify',
  'verificationRequired',
  'verified',
  'verifying',
  'waitAlert',
] as const;

export interface AltchaWidgetProps {
  challengeUrl: string;
  onPayload: (payload: string) => void;
  /** Incremented by the parent to ask for a fresh challenge (an ALTCHA payload is single-use). */
  resetKey: number;
  /** Whether the facade it replaces had the keyboard's focus (captcha.tsx). */
  focus: CarriedFocus;
}

/** The ALTCHA proof-of-work widget; its payload becomes the form's `recaptcha_response`. */
export default function AltchaWidget({ challengeUrl, onPayload, resetKey, focus }: AltchaWidgetProps) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLElement & { reset?: () => void }>(null);
  const callback = useRef(onPayload);
  callback.current = onPayload;
  const language = i18n.language;
  useCarriedFocus(focus, ref);

  // The widget's own texts come from our locale files, registered under the current language.
  globalThis.$altcha?.i18n.set(
    language,
    Object.fromEntries(STRING_KEYS.map((key) => [key, t(`captcha.${key}`)])) as Record<string, string>,
  );

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail;
      callback.current(detail?.state === 'verified' && detail.payload ? detail.payload : '');
    };
    element.addEventListener('statechange', listener);
    return () => element.removeEventListener('statechange', listener);
  }, []);

  // Mounted because the user started on the form: start solving right away.
  useEffect(() => {
    let cancelled = false;
    void customElements.whenDefined('altcha-widget').then(() => {
      setTimeout(() => {
        const element = ref.current as (HTMLElement & { verify?: () => Promise<unknown> }) | null;
        if (!cancelled) void element?.verify?.();
      }, 0);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    if (resetKey > 0) {
      const element = ref.current as (HTMLElement & { reset?: () => void; verify?: () => Promise<unknown> }) | null;
      element?.reset?.();
      callback.current('');
      void element?.verify?.();
    }
  }, [resetKey]);

  return (
    <altcha-widget
      ref={ref}
      challenge={challengeUrl}
      name="recaptcha_response"
      language={language}
      auto="onfocus"
      data-testid="altcha"
      style={{ '--altcha-max-width': '100%' }}
    />
  );
}
