import {
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Maildirs } from '../../src/drivers/mail/maildirs.ts';

describe('maildirs', () => {
  it('measures a mailbox without following symlinks, keeps deleted ones aside and purges them later', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'p247-maildirs-'));
    const box = path.join(root, 'example.test', 'info', 'Maildir', 'new');
    mkdirSync(box, { recursive: true });
    writeFileSync(path.join(box, 'one'), 'x'.repeat(1000));
    writeFileSync(path.join(box, 'two'), 'y'.repeat(24));
    symlinkSync('/etc', path.join(box, 'escape'));
    const maildirs = new Maildirs(root);
    expect(await maildirs.usage('example.test', 'info')).toBe(1024);
    expect(await maildirs.usage('example.test', 'nobody')).toBe(0);
    await expect(maildirs.usage('example.test', '../../etc')).rejects.toThrow(/outside/);

    await maildirs.dispose('example.test', 'info', 'keep', 1_000_000);
    expect(readdirSync(path.join(root, '.deleted', 'example.test'))).toEqual(['info.1000000']);
    expect(await maildirs.purgeKept(30, 1_000_000 + 29 * 86_400)).toBe(0);
    expect(await maildirs.purgeKept(30, 1_000_000 + 31 * 86_400)).toBe(1);
    expect(readdirSync(path.join(root, '.deleted', 'example.test'))).toEqual([]);
  });

  it('sync sets aside folders of no mailbox and gives files back to the mail user; a dry run only reports', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'p247-maildirs-'));
    const mail = (folder: string) => path.join(root, folder, 'Maildir', 'cur');
    for (const folder of ['example.test/info', 'example.test/gone', 'old.test/bob']) {
      mkdirSync(mail(folder), { recursive: true });
      writeFileSync(path.join(mail(folder), 'message'), 'hello');
    }
    // A link planted in a mailbox: its target must never be given away.
    symlinkSync('/etc/hostname', path.join(mail('example.test/info'), 'link'));
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      chownSync(root, 8, 8);
      for (const folder of ['example.test', 'example.test/info', 'example.test/info/Maildir'])
        chownSync(path.join(root, folder), 8, 8);
      chownSync(mail('example.test/info'), 8, 8);
      // one file still root's, as a restore run by root would leave it
    }
    const maildirs = new Maildirs(root);
    const mailboxes = [{ domain: 'example.test', localPart: 'info' }];
    const expected = [
      { folder: 'example.test/gone', problem: 'extra' },
      ...(asRoot ? [{ folder: 'example.test/info', problem: 'owner' }] : []),
      { folder: 'old.test/bob', problem: 'extra' },
    ];

    const dry = await maildirs.sync(mailboxes, { dryRun: true, now: 2_000_000 });
    expect(dry).toEqual(expected.map((drift) => ({ ...drift, repaired: false })));
    expect(existsSync(mail('old.test/bob'))).toBe(true);

    const repaired = await maildirs.sync(mailboxes, { dryRun: false, now: 2_000_000 });
    expect(repaired).toEqual(expected.map((drift) => ({ ...drift, repaired: true })));
    expect(existsSync(mail('old.test/bob'))).toBe(false);
    expect(readdirSync(path.join(root, '.deleted', 'old.test'))).toEqual(['bob.2000000']);
    expect(readdirSync(path.join(root, '.deleted', 'example.test'))).toEqual(['gone.2000000']);
    if (asRoot) {
      expect(lstatSync(path.join(mail('example.test/info'), 'message')).uid).toBe(8);
      expect(lstatSync(path.join(mail('example.test/info'), 'link')).uid).toBe(8);
      expect(lstatSync('/etc/hostname').uid).toBe(0);
    }
    expect(await maildirs.sync(mailboxes, { dryRun: false, now: 2_000_001 })).toEqual([]);
  });
});
