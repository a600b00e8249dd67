import { Group, Paper, Text } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useApp } from '../lib/app-context';
import { useTranslation } from '../lib/use-translation';
import { type CarriedFocus, useCarriedFocus } from './carried-focus';

const AltchaWidget = lazy(() => import('./altcha-widget'));
const ThirdPartyCaptcha = lazy(() => import('./third-party-captcha'));

/**
 * The ALTCHA widget's height (its box and the "protected by" line under it, measured in Chromium).
 * The facade and the widget's slot both take it, so the form does not grow when the widget loads.
 */
const ALTCHA_HEIGHT = 73;

/**
 * Stand-in for the ALTCHA widget until the user starts using the form (a "facade"): the widget's
 * 30 KB load only when needed, and then it starts solving at once. Looks and reads like the real
 * checkbox, and ticking it starts the check too.
 */
function AltchaFacade({ onActivate, focus }: { onActivate: () => void; focus: CarriedFocus }) {
  const { t } = useTranslation();
  const box = useRef<HTMLInputElement>(null);
  useCarriedFocus(focus, box);
  // A native checkbox: Mantine's Checkbox would add its chunk to the login route for one box.
  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      mih={ALTCHA_HEIGHT}
      display="flex"
      style={{ alignItems: 'center' }}
      data-testid="altcha-facade"
    >
      <Group justify="space-between" wrap="nowrap" w="100%">
        <label style={{ display: 'flex', alignItems: 'center', gap: 'var(--mantine-spacing-sm)', cursor: 'pointer' }}>
          <input
            ref={box}
            type="checkbox"
            checked={false}
            onChange={onActivate}
            style={{ width: 20, height: 20, margin: 0, accentColor: 'var(--mantine-primary-color-filled)' }}
          />
          <Text size="sm" component="span">
            {t('captcha.label')}
          </Text>
        </label>
        <Text size="xs" c="dimmed">
          ALTCHA
        </Text>
      </Group>
    </Paper>
  );
}

/**
 * The bot check configured by the brand. Its answer goes to `recaptcha_response`; with the
 * provider 'none' nothing is rendered and the answer stays empty.
 */
export function Captcha({ onPayload, resetKey }: { onPayload: (payload: string) => void; resetKey: number }) {
  const { config } = useApp();
  const { provider, siteKey, challengeUrl } = config.captcha;
  const [active, setActive] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const focus = useRef(false);

  useEffect(() => {
    if (provider === 'none') onPayload('');
  }, [provider, onPayload]);

  // The first focus inside the surrounding form wakes the widget up.
  useEffect(() => {
    if (provider !== 'altcha' || active) return;
    const form = anchor.current?.closest('form');
    if (!form) return;
    const activate = () => setActive(true);
    form.addEventListener('focusin', activate);
    return () => form.removeEventListener('focusin', activate);
  }, [provider, active]);

  if (provider === 'none') return null;
  if (provider === 'altcha') {
    return (
      <div ref={anchor} style={{ minHeight: ALTCHA_HEIGHT }}>
        {active ? (
          <Suspense fallback={<AltchaFacade onActivate={() => {}} focus={focus} />}>
            <AltchaWidget
              challengeUrl={challengeUrl || `${config.basePath}captcha/challenge/`}
              onPayload={onPayload}
              resetKey={resetKey}
              focus={focus}
            />
          </Suspense>
        ) : (
          <AltchaFacade onActivate={() => setActive(true)} focus={focus} />
        )}
      </div>
    );
  }
  return (
    <Suspense fallback={<div style={{ minHeight: 78 }} />}>
      <ThirdPartyCaptcha provider={provider} siteKey={siteKey} onPayload={onPayload} resetKey={resetKey} />
    </Suspense>
  );
}
