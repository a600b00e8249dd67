import { ActionIcon, Text } from '@mantine/core';
import { COPY_RESET_MS } from '@panel247/contract/constants';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../lib/use-translation';
import { HoverTooltip } from './hover-tooltip';

/**
 * Copies a value; a check shows for 2000 ms, and 'main.no_copy' when the clipboard refuses. Its
 * tooltip (on hover, as Mantine's by default) mounts on the pointer's first entry: a view's records
 * carry several of these, and closed tooltips cost every render (see HoverTooltip).
 */
export function CopyButton({ value, label }: { value: string; label?: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPY_RESET_MS);
  };

  return (
    <>
      <HoverTooltip label={state === 'copied' ? t('main.copied') : (label ?? t('main.copy'))} withArrow>
        <ActionIcon
          variant="subtle"
          color={state === 'copied' ? 'teal' : 'gray'}
          onClick={copy}
          aria-label={label ?? t('main.copy')}
          data-state={state}
        >
          {state === 'copied' ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
        </ActionIcon>
      </HoverTooltip>
      {state === 'failed' ? (
        <Text component="span" size="xs" c="red" role="alert">
          {t('main.no_copy')}
        </Text>
      ) : null}
    </>
  );
}
