// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { filterEntries, matchEntries, searchableEntries } from './filter-entries';

const entry = (
  id: number,
  reference: string,
  flags: Partial<Record<'hasDomain' | 'hasService' | 'hasMail', boolean>>,
) => ({
  id,
  reference,
  hasDomain: false,
  hasService: false,
  hasMail: false,
  ...flags,
});

describe('filterEntries', () => {
  const entries = [
    entry(1, 'zeta.test', { hasDomain: true }),
    entry(2, 'Alpha.test', { hasDomain: true, hasMail: true }),
    entry(3, 'beta.test', { hasService: true }),
    entry(4, 'mail-only.test', { hasMail: true }),
  ];

  it('keeps the entries with the matching flag, sorted alphabetically ignoring case', () => {
    expect(filterEntries(entries, 'domain', '').map((e) => e.id)).toEqual([2, 1]);
    expect(filterEntries(entries, 'mail', '').map((e) => e.id)).toEqual([2, 4]);
    expect(filterEntries(entries, 'service', '').map((e) => e.id)).toEqual([3]);
  });

  it('filters by a case-insensitive contains match', () => {
    expect(filterEntries(entries, 'domain', 'ALP').map((e) => e.id)).toEqual([2]);
    expect(filterEntries(entries, 'domain', 'ta.T').map((e) => e.id)).toEqual([1]);
    expect(filterEntries(entries, 'domain', 'nothing')).toEqual([]);
  });

  it('sorts and lower-cases once; each query only filters, keeping the order', () => {
    const list = searchableEntries(entries, 'domain');
    expect(list.texts).toEqual(['alpha.test', 'zeta.test']);
    expect(matchEntries(list, '')).toBe(list.entries);
    expect(matchEntries(list, ' .TEST ').map((e) => e.id)).toEqual([2, 1]);
    expect(matchEntries(list, 'Z').map((e) => e.id)).toEqual([1]);
  });
});
