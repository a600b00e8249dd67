// @vitest-environment node
import type { Alias, Mailbox } from '@panel247/contract/mail';
import { describe, expect, it } from 'vitest';
import { aliasName, aliasTargets, mailboxName, mailRows } from './mail-rows';

const mailbox = (id: number, user: string): Mailbox => ({
  id,
  user,
  quota: 0,
  usage: 0,
  eliminable: true,
  autoreply: false,
  forward: [],
});
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

describe('rows of a page', () => {
  it('keeps the order of the server, names each row and keys it by type and id', () => {
    const rows = mailRows(
      [
        { type: 'alias', alias: alias(7, 'contacto', 'info@demo.test') },
        { type: 'alias', alias: alias(9, '', 'info@demo.test') },
        { type: 'account', correo: mailbox(2, 'info') },
        { type: 'alias', alias: alias(2, 'info', 'x@y.es') },
      ],
      'demo.test',
    );
    expect(rows.map((row) => `${row.key} ${row.name}`)).toEqual([
      'alias-7 contacto@demo.test',
      'alias-9 demo.test',
      'account-2 info@demo.test',
      'alias-2 info@demo.test',
    ]);
    expect(rows[2]).toMatchObject({ type: 'account', mailbox: { id: 2, user: 'info' } });
  });
});
