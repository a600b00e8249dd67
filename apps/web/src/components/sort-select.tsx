import { NativeSelect } from '@mantine/core';
import { parseSort, type SortChoice, sortValue } from '../lib/list-sort';
import { useTranslation } from '../lib/use-translation';

/**
 * A list's order as one native select (every key, A–Z and Z–A, or oldest and newest first for a
 * date): light, and usable with the keyboard and a screen reader as it is. `labelOf` names a key
 * as its column does.
 */
export function SortSelect<Key extends string>({
  keys,
  labelOf,
  dated = [],
  value,
  onChange,
  testId,
}: {
  keys: readonly [Key, ...Key[]];
  labelOf: (key: Key) => string;
  /** The keys that are dates: their orders read "oldest first" and "newest first". */
  dated?: readonly Key[];
  value: SortChoice<Key>;
  onChange: (choice: SortChoice<Key>) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <NativeSelect
      label={t('lists.sort_label')}
      data={keys.flatMap((key) =>
        (['asc', 'desc'] as const).map((order) => ({
          value: sortValue({ sort: key, order }),
          label: t(dated.includes(key) ? `lists.sort_${order}_date` : `lists.sort_${order}`, { key: labelOf(key) }),
        })),
      )}
      value={sortValue(value)}
      onChange={(event) => onChange(parseSort(keys, event.currentTarget.value))}
      w={{ base: '100%', xs: 220 }}
      data-testid={testId}
    />
  );
}
