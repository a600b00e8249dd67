import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
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
});
