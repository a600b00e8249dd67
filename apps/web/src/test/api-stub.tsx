import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';

/** An answer as the server gives it: the envelope with `x-dd`, valid unless told otherwise. */
export function envelope(
  data: unknown,
  options: { info?: string[]; status?: number; errors?: string[]; inputs?: string[]; job?: unknown } = {},
): Response {
  const status = options.status ?? 200;
  const valid = status < 400;
  return new Response(
    JSON.stringify({
      system: {
        valid,
        errors: options.errors ?? (valid ? [] : ['error']),
        inputs: options.inputs ?? [],
        info: options.info ?? [],
        debug: [],
        job: options.job ?? null,
        statusCode: status,
        mlcVer: '',
      },
      data: valid ? data : null,
    }),
    { status, headers: { 'content-type': 'application/json', 'x-dd': '1' } },
  );
}

export interface StubCall {
  path: string;
  method: string;
  params: URLSearchParams;
}

/**
 * Replaces fetch: `answer` gets each call (path under the API base, method, form parameters) and
 * returns the Response (or a promise of it, to hold a call open). The calls are kept in order.
 */
export function stubApi(answer: (call: StubCall) => Response | Promise<Response>) {
  const calls: StubCall[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://panel.test');
    const params = new URLSearchParams(init.body ? String(init.body) : url.search);
    const call = { path: url.pathname.replace(/^\/p247\//, ''), method: init.method ?? 'GET', params };
    calls.push(call);
    return answer(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/** A promise of a Response resolved from outside: a call that stays open until the test says. */
export function heldResponse() {
  let release: (response: Response) => void = () => {};
  const promise = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

/** Renders with a query client and Mantine; `rerender` keeps both. */
export function renderWithProviders(
  ui: ReactNode,
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } }),
) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MantineProvider env="test">{children}</MantineProvider>
    </QueryClientProvider>
  );
  return { ...render(ui, { wrapper }), client };
}
