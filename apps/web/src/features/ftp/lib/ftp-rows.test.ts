import type { FtpAccount } from '@panel247/contract/ftp';
import { describe, expect, it } from 'vitest';
import { filterAccounts, sortAccounts } from './ftp-rows';

const account = (id: number, user: string, directorio: string): FtpAccount => ({
  id,
  user,
  directorio,
  password: '',
  eliminable: true,
});

describe('FTP rows', () => {
  const list = [account(1, 'web@demo.test', 'web'), account(2, 'Admin@demo.test', ''), account(3, 'b@demo.test', 'b')];

  it('sorts by login, case-insensitive', () => {
    expect(sortAccounts(list).map((item) => item.id)).toEqual([2, 3, 1]);
  });

  it('filters on login and folder', () => {
    expect(filterAccounts(list, 'ADMIN').map((item) => item.id)).toEqual([2]);
    expect(filterAccounts(list, '/web').map((item) => item.id)).toEqual([1]);
    expect(filterAccounts(list, '  ').map((item) => item.id)).toEqual([1, 2, 3]);
    expect(filterAccounts(list, 'nobody')).toEqual([]);
  });
});
