// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { holdBadges } from './backup-holds';

describe('holdBadges', () => {
  it('names each part a snapshot holds, in a fixed order', () => {
    expect(
      holdBadges({
        files: true,
        mailboxes: ['info', 'sales'],
        databases: ['shop', 'blog'],
        dns: true,
        mailFolders: {},
      }),
    ).toEqual([
      { id: 'files', key: 'backups.holds.files', values: {} },
      { id: 'mail', key: 'backups.holds.mail', values: { count: 2 } },
      { id: 'databases', key: 'backups.holds.databases', values: { names: 'shop, blog' } },
      { id: 'dns', key: 'backups.holds.dns', values: {} },
    ]);
  });

  it('leaves out what it does not hold', () => {
    expect(
      holdBadges({ files: true, mailboxes: [], databases: [], dns: false, mailFolders: {} }).map((badge) => badge.id),
    ).toEqual(['files']);
  });
});
