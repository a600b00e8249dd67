import type { Alias, Mailbox } from '@panel247/contract/mail';
import { describe, expect, it } from 'vitest';
import { aliasName, aliasTargets, combineRows, filterRows, mailboxName } from './mail-rows';

const mailbox = (id: number, user: string): Mailbox => ({ id, user, quota: 0, usage: 0, eliminable: true });
const alias = (id: number, local: string, name: string, domain = 'demo.test'): Alias => ({
  id,
  alias: local,
  referencePunycode: domain,
  name,
  eliminable: true,
});

describe('display names', () => {
  it('account: user@domain', () => {
    expect(mailboxName(mailbox(1, 'info'), 'xn--espaa-rta.test')).toBe('info@xn--espaa-rta.test');
  });

  it('alias: alias@domain, or the domain alone when the alias is empty', () => {
    expect(aliasName(alias(1, 'contacto', 'a@b.co'))).toBe('contacto@demo.test');
    expect(aliasName(alias(2, '', 'a@b.co', 'mail-demo.test'))).toBe('mail-demo.test');
  });

  it('splits the targets', () => {
    expect(aliasTargets(alias(1, 'x', 'info@demo.test, ventas@demo.test,'))).toEqual([
      'info@demo.test',
      'ventas@demo.test',
    ]);
  });
});

describe('combined list', () => {
  const rows = combineRows(
    [mailbox(1, 'ventas'), mailbox(2, 'info')],
    [alias(7, 'contacto', 'info@demo.test'), alias(8, 'info', 'x@y.es'), alias(9, '', 'info@demo.test')],
    'demo.test',
  );

  it('holds both kinds, sorted by name (account first on a tie)', () => {
    expect(rows.map((row) => `${row.type}:${row.name}`)).toEqual([
      'alias:contacto@demo.test',
      'alias:demo.test',
      'account:info@demo.test',
      'alias:info@demo.test',
      'account:ventas@demo.test',
    ]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
  });

  it('filters by type', () => {
    expect(filterRows(rows, 'all', '')).toHaveLength(5);
    expect(filterRows(rows, 'account', '').map((row) => row.name)).toEqual(['info@demo.test', 'ventas@demo.test']);
    expect(filterRows(rows, 'alias', '').map((row) => row.name)).toEqual([
      'contacto@demo.test',
      'demo.test',
      'info@demo.test',
    ]);
  });

  it('filters by text on the display name, case-insensitive, combined with the type', () => {
    expect(filterRows(rows, 'all', ' INFO ').map((row) => row.key)).toEqual(['account-2', 'alias-8']);
    expect(filterRows(rows, 'alias', 'info').map((row) => row.key)).toEqual(['alias-8']);
    expect(filterRows(rows, 'account', 'contacto')).toEqual([]);
    // the targets are not the name
    expect(filterRows(rows, 'all', 'x@y.es')).toEqual([]);
  });
});
