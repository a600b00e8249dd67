import { PassThrough, type Readable, type Transform } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import { type AnswerEncoding, chooseEncoding } from './answer-encoding.ts';

/** A page is tens of KB: Brotli at quality 5 compresses one in about a millisecond. */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/** The page compressed as the client accepts it. */
export function encodePage(html: string, acceptEncoding: string | undefined): { body: Buffer; encoding?: string } {
  const body = Buffer.from(html);
  const encoding = chooseEncoding(acceptEncoding);
  if (encoding === 'br') return { body: brotliCompressSync(body, BROTLI), encoding };
  if (encoding === 'gzip') return { body: gzipSync(body), encoding };
  return { body };
}

/**
 * A page sent in parts as they are ready: each part is compressed as the client accepts it and
 * flushed at once, so the browser has a part before the next one is made (a drawn page's head
 * before its rows, web-app.ts).
 */
export class PageStream {
  readonly encoding: AnswerEncoding | undefined;
  private readonly stream: Transform;

  constructor(acceptEncoding: string | undefined) {
    this.encoding = chooseEncoding(acceptEncoding);
    this.stream =
      this.encoding === 'br'
        ? createBrotliCompress(BROTLI)
        : this.encoding === 'gzip'
          ? createGzip()
          : new PassThrough();
  }

  /** What the reply sends. */
  get body(): Readable {
    return this.stream;
  }

  /** Sends `part` now: a compressor would otherwise keep it until it has a block's worth. */
  write(part: string): void {
    // the browser went away: nothing is sent after
    if (this.stream.destroyed) return;
    this.stream.write(part);
    if ('flush' in this.stream && typeof this.stream.flush === 'function') {
      this.stream.flush(this.encoding === 'gzip' ? constants.Z_SYNC_FLUSH : constants.BROTLI_OPERATION_FLUSH);
    }
  }

  /** Sends the last part. */
  end(part: string): void {
    if (!this.stream.destroyed) this.stream.end(part);
  }

  /** Cuts the page short: the browser sees a failed load rather than a page that never ends. */
  abort(error: Error): void {
    this.stream.destroy(error);
  }
}
