// @vitest-environment node
import type { HostedDatabase } from '@panel247/contract/databases';
import { describe, expect, it } from 'vitest';
import { filterDatabases, limitReached, sortDatabases } from './databases-rows';

const database = (id: number, bbdd: string, user = bbdd): HostedDatabase => ({
  id,
  bbdd,
  user,
  password: '',
  externalAccess: false,
  eliminable: true,
  size: 0,
});

describe('database rows', () => {
  const list = [database(1, 'demotest_2'), database(2, 'Demotest_1'), database(3, 'shop_1', 'shopuser')];

  it('sorts by name, case-insensitive', () => {
    expect(sortDatabases(list).map((item) => item.id)).toEqual([2, 1, 3]);
  });

  it('filters on name and user', () => {
    expect(filterDatabases(list, 'DEMOTEST').map((item) => item.id)).toEqual([1, 2]);
    expect(filterDatabases(list, 'shopuser').map((item) => item.id)).toEqual([3]);
    expect(filterDatabases(list, ' ').map((item) => item.id)).toEqual([1, 2, 3]);
    expect(filterDatabases(list, 'nothing')).toEqual([]);
  });

  it('refuses creation at the limit', () => {
    expect(limitReached(2, 3)).toBe(false);
    expect(limitReached(3, 3)).toBe(true);
    expect(limitReached(4, 3)).toBe(true);
    expect(limitReached(0, 0)).toBe(true);
  });
});
