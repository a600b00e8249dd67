import { Center, Loader } from '@mantine/core';
import { SPINNER_DELAY_MS } from '@panel247/contract/constants';
import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/use-translation';

/**
 * Page content shows a spinner only after 400 ms of loading, so fast loads do not flicker.
 * `overlay`: in the middle of the screen, over the page (a dialog whose code is still loading is
 * not in the page's flow), without catching the pointer.
 */
export function DelayedSpinner({ delay = SPINNER_DELAY_MS, overlay = false }: { delay?: number; overlay?: boolean }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), delay);
    return () => clearTimeout(timer);
  }, [delay]);
  if (!visible) return null;
  return (
    <Center
      py="xl"
      role="status"
      aria-live="polite"
      aria-label={t('main.loading')}
      style={overlay ? { position: 'fixed', inset: 0, zIndex: 300, pointerEvents: 'none' } : undefined}
    >
      <Loader aria-hidden data-testid="page-spinner" />
    </Center>
  );
}
