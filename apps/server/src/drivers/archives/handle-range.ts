import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

const CHUNK = 64 * 1024;

/**
 * Bytes `start` to `end` (exclusive) of a file its caller opened and closes, as a stream. Read
 * by hand: Node's FileHandle streams close or hold on to their handle in ways that broke both
 * yauzl (a second range after the first ended) and pipeline() (never settling).
 */
export function handleRange(handle: FileHandle, start: number, end: number): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    let position = start;
    while (position < end) {
      const buffer = Buffer.alloc(Math.min(CHUNK, end - position));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      // The file shrank: what there is, and no more.
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}
