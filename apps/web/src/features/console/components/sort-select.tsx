import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { parseSort, type SortChoice, sortValue } from '../lib/list-sort';

/**
 * A console list's order as one native select (every key, A–Z and Z–A): light, and usable with
 * the keyboard and a screen reader as it is. `labelOf` names a key as its column does.
 */
export function SortSelect<Key extends string>({
  keys,
  labelOf,
  value,
  onChange,
  testId,
}: {
  keys: readonly [Key, ...Key[]];
  labelOf: (key: Key) => string;
  value: SortChoice<Key>;
  onChange: (choice: SortChoice<Key>) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <NativeSelect
      label={t('console.sort.label')}
      data={keys.flatMap((key) =>
        (['asc', 'desc'] as const).map((order) => ({
          value: sortValue({ sort: key, order }),
          label: t(`console.sort.${order}`, { key: labelOf(key) }),
        })),
      )}
      value={sortValue(value)}
      onChange={(event) => onChange(parseSort(keys, event.currentTarget.value))}
      w={{ base: '100%', xs: 220 }}
      data-testid={testId}
    />
  );
}
