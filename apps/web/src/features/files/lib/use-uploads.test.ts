import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setBasePath } from '../../../lib/api-client';
import { useUploads } from './use-uploads';

const ROOT = { serviceId: 7, ftp: null };

function done(size: number) {
  return new Response(
    JSON.stringify({
      system: { valid: true, errors: [], inputs: [], info: [], debug: [] },
      data: { received: size, done: true },
    }),
    { status: 200, headers: { 'content-type': 'application/json', 'x-dd': '1' } },
  );
}

/**
 * Every PUT waits until the test lets it go (or its signal aborts, as fetch does): the queue's
 * states are looked at while a file is on its way, whatever the machine's speed.
 */
function heldServer() {
  const waiting: { name: string; release: () => void }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://panel.test');
      const name = url.searchParams.get('name') ?? '';
      const size = Number(url.searchParams.get('size'));
      return new Promise<Response>((resolve, reject) => {
        waiting.push({ name, release: () => resolve(done(size)) });
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }),
  );
  return {
    /** The names whose chunk the server holds, in order. */
    names: () => waiting.map((call) => call.name),
    release: (name: string) => waiting.find((call) => call.name === name)?.release(),
  };
}

const file = (name: string, text = 'abc') => new File([text], name);

setBasePath('/p247/');
afterEach(() => vi.unstubAllGlobals());

describe('upload queue', () => {
  it('sends the files one after the other and says when all are done', async () => {
    const server = heldServer();
    const settled = vi.fn();
    const { result } = renderHook(() => useUploads(settled));
    act(() => result.current.add([file('a.txt'), file('b.txt', 'bb')], ROOT, 'web'));
    await waitFor(() => expect(server.names()).toEqual(['a.txt']));
    expect(result.current.items.map((item) => item.state)).toEqual(['sending', 'queued']);

    await act(async () => server.release('a.txt'));
    await waitFor(() => expect(server.names()).toEqual(['a.txt', 'b.txt']));
    expect(settled).not.toHaveBeenCalled();
    await act(async () => server.release('b.txt'));
    await waitFor(() => expect(settled).toHaveBeenCalledTimes(1));
    expect(result.current.items.map((item) => [item.name, item.state, item.received])).toEqual([
      ['a.txt', 'done', 3],
      ['b.txt', 'done', 2],
    ]);
  });

  it('cancels a queued file before it starts, and the running one on its way', async () => {
    const server = heldServer();
    const settled = vi.fn();
    const { result } = renderHook(() => useUploads(settled));
    act(() => result.current.add([file('a.txt'), file('b.txt')], ROOT, ''));
    await waitFor(() => expect(server.names()).toEqual(['a.txt']));
    const [a, b] = result.current.items;

    act(() => result.current.cancel(b?.key ?? 0));
    expect(result.current.items[1]?.state).toBe('cancelled');
    act(() => result.current.cancel(a?.key ?? 0));
    await waitFor(() => expect(result.current.items[0]?.state).toBe('cancelled'));
    await waitFor(() => expect(settled).toHaveBeenCalledTimes(1));
    // b never went out
    expect(server.names()).toEqual(['a.txt']);

    act(() => result.current.clearFinished());
    expect(result.current.items).toEqual([]);
  });

  it('refuses a name the server would refuse without sending it', async () => {
    const server = heldServer();
    const { result } = renderHook(() => useUploads(() => {}));
    act(() => result.current.add([file('..')], ROOT, ''));
    expect(result.current.items[0]).toMatchObject({ name: '..', state: 'failed', error: 'files.invalid_name' });
    expect(server.names()).toEqual([]);
  });
});
