// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setBasePath } from '../../../lib/api-client';
import type { UploadDestination } from '../api/upload-chunk';
import { uploadFile } from './chunked-upload';

const DESTINATION: UploadDestination = { root: { serviceId: 7, ftp: 3 }, folder: 'web/img', name: 'a b.txt' };

function answer(data: unknown, status = 200, errors: string[] = [], inputs: string[] = []) {
  const valid = status < 400;
  return new Response(
    JSON.stringify({
      system: { valid, errors: valid ? [] : errors.length ? errors : ['error'], inputs, info: [], debug: [] },
      data: valid ? data : null,
    }),
    { status, headers: { 'content-type': 'application/json', 'x-dd': '1' } },
  );
}

type Fault = 'network' | 'error-envelope' | 'answer-lost' | 'field-error' | 'quota';

/**
 * The server's side of the protocol, in memory: a chunk is taken only at the offset the server
 * holds the file up to. `faults` breaks the n-th PUT (0-based) in the way it names.
 */
function fakeServer(faults: Record<number, Fault> = {}) {
  let stored = new Uint8Array(0);
  let size = -1;
  let puts = 0;
  const requests: { method: string; url: URL; headers: Record<string, string> }[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://panel.test');
    const method = init.method ?? 'GET';
    requests.push({ method, url, headers: (init.headers ?? {}) as Record<string, string> });
    if (method === 'GET') return answer({ received: stored.length, done: size >= 0 && stored.length === size });
    const fault = faults[puts++];
    if (fault === 'network') throw new TypeError('Failed to fetch');
    if (fault === 'error-envelope') return answer(null, 503, ['files.error.busy']);
    if (fault === 'field-error') return answer(null, 400, ['files.error.name'], ['name']);
    if (fault === 'quota') return answer(null, 507, ['files.error.quota']);
    const offset = Number(url.searchParams.get('offset'));
    if (offset !== stored.length) return answer(null, 409, ['files.error.offset']);
    size = Number(url.searchParams.get('size'));
    const bytes = new Uint8Array(await (init.body as Blob).arrayBuffer());
    const next = new Uint8Array(stored.length + bytes.length);
    next.set(stored);
    next.set(bytes, stored.length);
    stored = next;
    if (fault === 'answer-lost') throw new TypeError('connection reset');
    return answer({ received: stored.length, done: stored.length === size });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    puts: () => requests.filter((request) => request.method === 'PUT'),
    text: () => new TextDecoder().decode(stored),
  };
}

const noPause = async () => {};

afterEach(() => vi.unstubAllGlobals());
setBasePath('/p247/');

describe('chunked upload', () => {
  it('sends the file in chunks of at most the chunk size, each where the last one ended', async () => {
    const server = fakeServer();
    const progress: number[] = [];
    await uploadFile(new Blob(['0123456789']), DESTINATION, {
      chunkBytes: 4,
      onProgress: (received) => progress.push(received),
    });
    expect(server.text()).toBe('0123456789');
    expect(progress).toEqual([4, 8, 10]);
    const puts = server.puts();
    expect(puts.map((put) => put.url.searchParams.get('offset'))).toEqual(['0', '4', '8']);
    const first = puts[0];
    expect(first?.url.pathname).toBe('/p247/service/7/files/upload/');
    expect(Object.fromEntries(first?.url.searchParams ?? [])).toEqual({
      path: 'web/img',
      name: 'a b.txt',
      ftp: '3',
      offset: '0',
      size: '10',
    });
    expect(first?.headers['content-type']).toBe('application/octet-stream');
    expect(first?.headers['x-dd-request']).toBe('1');
  });

  it('sends a zero-byte file as one empty chunk at offset 0 of size 0', async () => {
    const server = fakeServer();
    await uploadFile(new Blob([]), DESTINATION, { chunkBytes: 4 });
    const puts = server.puts();
    expect(puts).toHaveLength(1);
    expect(puts[0]?.url.searchParams.get('offset')).toBe('0');
    expect(puts[0]?.url.searchParams.get('size')).toBe('0');
  });

  it('after a network error asks where to resume and sends the rest from there', async () => {
    const server = fakeServer({ 1: 'network' });
    const pauses: number[] = [];
    await uploadFile(new Blob(['0123456789']), DESTINATION, {
      chunkBytes: 4,
      pause: async (attempt) => {
        pauses.push(attempt);
      },
    });
    expect(server.text()).toBe('0123456789');
    expect(pauses).toEqual([1]);
    expect(
      server.requests.map((request) => `${request.method} ${request.url.searchParams.get('offset') ?? ''}`),
    ).toEqual(['PUT 0', 'PUT 4', 'GET ', 'PUT 4', 'PUT 8']);
    const status = server.requests.find((request) => request.method === 'GET');
    expect(status?.url.pathname).toBe('/p247/service/7/files/upload/status/');
    expect(Object.fromEntries(status?.url.searchParams ?? [])).toEqual({ path: 'web/img', name: 'a b.txt', ftp: '3' });
  });

  it('does not send again a chunk that arrived when only its answer was lost', async () => {
    const server = fakeServer({ 1: 'answer-lost' });
    await uploadFile(new Blob(['0123456789']), DESTINATION, { chunkBytes: 4, pause: noPause });
    expect(server.text()).toBe('0123456789');
    expect(server.puts().map((put) => put.url.searchParams.get('offset'))).toEqual(['0', '4', '8']);
  });

  it('finishes without another chunk when the lost answer was the last one', async () => {
    const server = fakeServer({ 2: 'answer-lost' });
    const progress: number[] = [];
    await uploadFile(new Blob(['0123456789']), DESTINATION, {
      chunkBytes: 4,
      pause: noPause,
      onProgress: (received) => progress.push(received),
    });
    expect(server.text()).toBe('0123456789');
    expect(server.puts()).toHaveLength(3);
    expect(progress.at(-1)).toBe(10);
  });

  it('resumes after an error envelope too', async () => {
    const server = fakeServer({ 0: 'error-envelope' });
    await uploadFile(new Blob(['0123456789']), DESTINATION, { chunkBytes: 4, pause: noPause });
    expect(server.text()).toBe('0123456789');
  });

  it('gives up with the last error after the retries, a failure at a time', async () => {
    fakeServer({ 1: 'network', 2: 'network', 3: 'network' });
    const pauses: number[] = [];
    const failure = uploadFile(new Blob(['0123456789']), DESTINATION, {
      chunkBytes: 4,
      retries: 2,
      pause: async (attempt) => {
        pauses.push(attempt);
      },
    });
    await expect(failure).rejects.toMatchObject({ name: 'ApiError', message: 'error' });
    expect(pauses).toEqual([1, 2]);
  });

  it('a successful chunk starts the count of failures over', async () => {
    const server = fakeServer({ 0: 'network', 2: 'network' });
    await uploadFile(new Blob(['0123456789']), DESTINATION, { chunkBytes: 4, retries: 1, pause: noPause });
    expect(server.text()).toBe('0123456789');
  });

  it('does not retry what the server refuses for good (a bad name)', async () => {
    const server = fakeServer({ 0: 'field-error' });
    const pause = vi.fn(noPause);
    await expect(uploadFile(new Blob(['abc']), DESTINATION, { pause })).rejects.toMatchObject({
      message: 'files.error.name',
    });
    expect(pause).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a full web space (507)', async () => {
    const server = fakeServer({ 0: 'quota' });
    const pause = vi.fn(noPause);
    await expect(uploadFile(new Blob(['abc']), DESTINATION, { pause })).rejects.toMatchObject({
      message: 'files.error.quota',
    });
    expect(pause).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(1);
  });

  it('stops at once when cancelled, even during the pause', async () => {
    const server = fakeServer({ 0: 'network' });
    const controller = new AbortController();
    const upload = uploadFile(new Blob(['0123456789']), DESTINATION, {
      chunkBytes: 4,
      signal: controller.signal,
      pause: (_attempt, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          controller.abort();
        }),
    });
    await expect(upload).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });
});
