import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tarEntries } from '../../src/drivers/archives/archive.ts';

/** Reads every entry's name: what an extraction does first. */
async function names(source: PassThrough, gzipped: boolean): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of tarEntries(source, gzipped)) found.push(entry.name);
  return found;
}

describe('tar entries of a source that failed before it was read', () => {
  // A worker told its input broke while it still made its staging folder reads a stream that
  // already sent its 'error': the reading must fail at once (so the staging folder is cleaned
  // up), not wait for bytes that never come.
  for (const gzipped of [false, true]) {
    it(`fails with the source's error (${gzipped ? 'gzipped' : 'plain'} tar)`, async () => {
      const source = new PassThrough();
      source.on('error', () => undefined);
      source.destroy(new Error('the panel could not read the input'));
      await new Promise((resolve) => setImmediate(resolve));
      await expect(names(source, gzipped)).rejects.toThrow('the panel could not read the input');
    });
  }

  it('fails when the source was closed without an error', async () => {
    const source = new PassThrough();
    source.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    await expect(names(source, false)).rejects.toThrow('closed before it was read');
  });
});
