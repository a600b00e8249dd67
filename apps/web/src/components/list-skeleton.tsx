import { Skeleton, Stack } from '@mantine/core';
import { SPINNER_DELAY_MS } from '@panel247/contract/constants';
import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/use-translation';

/** A list's skeleton, shown only after 400 ms of loading (spec: lists in general). */
export function ListSkeleton({ rows = 4, height = 36, testId }: { rows?: number; height?: number; testId: string }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), SPINNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <Stack gap="xs" role="status" aria-label={t('main.loading')} data-testid={testId}>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder rows
        <Skeleton key={index} height={height} radius="sm" />
      ))}
    </Stack>
  );
}
