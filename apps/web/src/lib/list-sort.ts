/** A list's order: one of its sort keys, ascending or descending. */
export type SortChoice<Key extends string> = { sort: Key; order: 'asc' | 'desc' };

/** A sort choice as one value of a native select ('plan-desc'). */
export const sortValue = ({ sort, order }: SortChoice<string>) => `${sort}-${order}`;

/** A select's value back to a choice of `keys`; anything it does not know is the first key, ascending. */
export function parseSort<Key extends string>(keys: readonly [Key, ...Key[]], value: string): SortChoice<Key> {
  const [sort, order] = value.split('-');
  return { sort: keys.find((key) => key === sort) ?? keys[0], order: order === 'desc' ? 'desc' : 'asc' };
}
