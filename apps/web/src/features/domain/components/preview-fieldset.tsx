import { Button, Fieldset, Loader, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { previewItems } from '../lib/preview';

/** A fieldset with the first 2 entries and a show-more button for the rest (spec section 2). */
export function PreviewFieldset<T>({
  legend,
  items,
  loading,
  empty,
  render,
  itemKey,
  testId,
}: {
  legend: string;
  items: readonly T[];
  loading: boolean;
  empty: string;
  render: (item: T) => ReactNode;
  itemKey: (item: T) => string | number;
  testId: string;
}) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const { shown, hidden, canExpand } = previewItems(items, expanded);
  return (
    <Fieldset legend={legend} data-testid={testId} variant="filled" p="sm">
      {loading ? (
        <Loader size="xs" role="status" aria-label={t('main.loading')} />
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap={6}>
          {shown.map((item) => (
            <div key={itemKey(item)} data-testid={`${testId}-item`}>
              {render(item)}
            </div>
          ))}
          {canExpand ? (
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => setExpanded((value) => !value)}
              aria-expanded={expanded}
              data-testid={`${testId}-more`}
              style={{ alignSelf: 'flex-start' }}
            >
              {expanded ? t('domain.show_less') : t('domain.show_more', { count: hidden })}
            </Button>
          ) : null}
        </Stack>
      )}
    </Fieldset>
  );
}
