import { lstatSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diskUsage } from '../../src/drivers/homes/disk-usage.ts';

describe('diskUsage', () => {
  it('adds the apparent sizes of a tree without following links, and stops at the entry cap', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'p247-du-'));
    mkdirSync(path.join(root, 'a/b'), { recursive: true });
    writeFileSync(path.join(root, 'one.txt'), 'x'.repeat(1000));
    writeFileSync(path.join(root, 'a/b/two.txt'), 'y'.repeat(3000));
    symlinkSync('/usr', path.join(root, 'a/out'));
    const sizes = ['', 'a', 'a/b', 'one.txt', 'a/b/two.txt', 'a/out'].map(
      (entry) => lstatSync(path.join(root, entry)).size,
    );
    const full = sizes.reduce((sum, size) => sum + size, 0);
    expect(await diskUsage(root)).toBe(full);
    // Capped: the walk ends early with a lower bound (two.txt, deeper down, is not reached).
    expect(await diskUsage(root, 2)).toBeLessThanOrEqual(full - 3000);
    expect(await diskUsage(path.join(root, 'missing'))).toBe(0);
  });
});
