import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { JSON_MARK_HEADER } from '@panel247/contract/constants';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Smaller answers go as they are: compressing them saves less than the work costs. */
export const COMPRESS_MIN_BYTES = 4096;

export type AnswerEncoding = 'br' | 'gzip';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli at quality 4: on a 1 MB permission list it is as fast as gzip (about 5 ms) and a third of
 * its size; the default quality (11) takes seconds. Both run on libuv's pool, off the event loop.
 */
function compress(body: string, encoding: AnswerEncoding): Promise<Buffer> {
  const bytes = Buffer.from(body);
  if (encoding === 'gzip') return gzipAsync(bytes, { level: 6 });
  return brotliAsync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
}

/** The encoding to answer with: br, else gzip, when the client takes it (a `q=0` refuses). */
export function chooseEncoding(acceptEncoding: string | undefined): AnswerEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) : 1);
  }
  for (const encoding of ['br', 'gzip'] as const) {
    const weight = weights.get(encoding) ?? weights.get('*');
    if (weight !== undefined && weight > 0) return encoding;
  }
  return undefined;
}

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 says for it). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/** An answer kept while it stays the same: its ETag and its compressed forms, each made once. */
interface KeptAnswer {
  etag: string;
  encoded: Map<AnswerEncoding, Promise<Buffer>>;
}

/**
 * Kept answers by the object whose life they share (e.g. a cache entry of the permission list):
 * when the owner is dropped — the data changed, or its time ran out — its answer goes with it.
 */
const kept = new WeakMap<object, KeptAnswer>();

function keptFor(owner: object, body: string): KeptAnswer {
  let answer = kept.get(owner);
  if (!answer) {
    // Weak: the same data whatever its encoding; the hash is of the whole envelope sent.
    answer = { etag: `W/"${hash('sha1', body, 'base64url')}"`, encoded: new Map() };
    kept.set(owner, answer);
  }
  return answer;
}

function encodedForm(answer: KeptAnswer | undefined, body: string, encoding: AnswerEncoding): Promise<Buffer> {
  if (!answer) return compress(body, encoding);
  let encoded = answer.encoded.get(encoding);
  if (!encoded) {
    encoded = compress(body, encoding);
    answer.encoded.set(encoding, encoded);
    // A failure is not kept: the next request tries again.
    encoded.catch(() => answer.encoded.delete(encoding));
  }
  return encoded;
}

/**
 * Sends a success envelope already serialised. Over `COMPRESS_MIN_BYTES` it goes compressed when
 * the client takes br or gzip. With `unchangedWhile` (an object that lives exactly as long as
 * `body` stays the same) the answer also gets an ETag: the browser keeps it (`private, no-cache`:
 * never shared, always revalidated), asks again with If-None-Match, and an unchanged answer is a
 * 304 without a body; its compressed forms are made once. Every other answer is `no-store`.
 */
export async function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  body: string,
  unchangedWhile?: object,
): Promise<FastifyReply> {
  const answer = unchangedWhile ? keptFor(unchangedWhile, body) : undefined;
  reply.header(JSON_MARK_HEADER, '1');
  if (answer) {
    // The session cookie decides whose answer it is: another session never revalidates this one.
    reply
      .header('etag', answer.etag)
      .header('cache-control', 'private, no-cache')
      .header('vary', 'Accept-Encoding, Cookie');
    if (etagMatches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  } else {
    reply.header('cache-control', 'no-store');
  }
  reply.code(200).type('application/json; charset=utf-8');
  if (body.length < COMPRESS_MIN_BYTES) return reply.send(body);
  if (!answer) reply.header('vary', 'Accept-Encoding');
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(body);
  const encoded = await encodedForm(answer, body, encoding).catch(() => undefined);
  if (!encoded) return reply.send(body);
  return reply.header('content-encoding', encoding).send(encoded);
}
