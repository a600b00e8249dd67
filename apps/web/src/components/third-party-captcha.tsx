import type { CaptchaProvider } from '@panel247/contract/config';
import { useEffect, useRef } from 'react';

interface WidgetApi {
  render: (element: HTMLElement, options: Record<string, unknown>) => string | number;
  reset: (id?: string | number) => void;
}

const SCRIPTS: Record<'recaptcha' | 'hcaptcha' | 'turnstile', { url: string; global: string }> = {
  recaptcha: { url: 'https://www.google.com/recaptcha/api.js', global: 'grecaptcha' },
  hcaptcha: { url: 'https://js.hcaptcha.com/1/api.js', global: 'hcaptcha' },
  turnstile: { url: 'https://challenges.cloudflare.com/turnstile/v0/api.js', global: 'turnstile' },
};

const loading = new Map<string, Promise<WidgetApi>>();

/** Loads a provider's script once, only when the brand configured that provider. */
function loadScript(provider: keyof typeof SCRIPTS): Promise<WidgetApi> {
  const existing = loading.get(provider);
  if (existing) return existing;
  const { url, global } = SCRIPTS[provider];
  const promise = new Promise<WidgetApi>((resolve, reject) => {
    const callbackName = `__p247_${provider}_loaded`;
    (window as unknown as Record<string, unknown>)[callbackName] = () =>
      resolve((window as unknown as Record<string, WidgetApi>)[global] as WidgetApi);
    const script = document.createElement('script');
    script.src = `${url}?render=explicit&onload=${callbackName}`;
    script.async = true;
    script.onerror = () => reject(new Error(`${provider} failed to load`));
    document.head.appendChild(script);
  });
  loading.set(provider, promise);
  return promise;
}

export default function ThirdPartyCaptcha({
  provider,
  siteKey,
  onPayload,
  resetKey,
}: {
  provider: Exclude<CaptchaProvider, 'altcha' | 'none'>;
  siteKey: string;
  onPayload: (payload: string) => void;
  resetKey: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: WidgetApi; id: string | number } | null>(null);
  const callback = useRef(onPayload);
  callback.current = onPayload;

  useEffect(() => {
    let cancelled = false;
    loadScript(provider)
      .then((api) => {
        if (cancelled || !ref.current) return;
        const id = api.render(ref.current, {
          sitekey: siteKey,
          callback: (token: string) => callback.current(token),
          'expired-callback': () => callback.current(''),
          'error-callback': () => callback.current(''),
        });
        widget.current = { api, id };
      })
      .catch(() => callback.current(''));
    return () => {
      cancelled = true;
    };
  }, [provider, siteKey]);

  useEffect(() => {
    if (resetKey > 0 && widget.current) {
      widget.current.api.reset(widget.current.id);
      callback.current('');
    }
  }, [resetKey]);

  return <div ref={ref} data-testid={`captcha-${provider}`} />;
}
