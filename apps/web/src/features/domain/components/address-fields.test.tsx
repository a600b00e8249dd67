import { MantineProvider } from '@mantine/core';
import type { CountryData } from '@panel247/contract/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { useState } from 'react';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { ADDRESS_LOOKUP_DEBOUNCE_MS } from '../lib/address';
import { AddressFields, type AddressValues } from './address-fields';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Barcelona province with no city list, so the city is a free input typed letter by letter. */
function answer(params: URLSearchParams): CountryData {
  return {
    country: { ES: 'España' },
    states: [{ key: 'B', name: 'Barcelona' }],
    cities: [],
    postalCodes: [],
    selected: { country: 'ES', state: 'B', city: params.get('city') ?? '', postalCode: '' },
    names: { state: 'Provincia', city: 'Ciudad' },
  };
}

function Harness() {
  const [values, setValues] = useState<AddressValues>({ country: 'ES', state: 'B', city: '', postalCode: '' });
  return (
    <AddressFields
      values={values}
      errors={{}}
      onChange={(patch) => setValues((current) => ({ ...current, ...patch }))}
      onPostalCodesKnown={() => {}}
    />
  );
}

describe('address lookup', () => {
  it(`asks for the city ${ADDRESS_LOOKUP_DEBOUNCE_MS} ms after the last change, once`, async () => {
    vi.useFakeTimers();
    const cities: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const params = new URLSearchParams(String(init.body));
        if (params.has('city')) cities.push(params.get('city') as string);
        return new Response(
          JSON.stringify({
            system: {
              valid: true,
              errors: [],
              inputs: [],
              info: [],
              debug: [],
              job: null,
              statusCode: 200,
              mlcVer: '',
            },
            data: answer(params),
          }),
          { headers: { 'content-type': 'application/json', 'x-dd': '1' } },
        );
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MantineProvider env="test">
          <Harness />
        </MantineProvider>
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(50));
    const city = screen.getByTestId('contact-city');
    expect(city.tagName).toBe('INPUT');

    // Typed faster than the debounce: no lookup for "B" or "Ba".
    for (const typed of ['B', 'Ba', 'Bar']) {
      fireEvent.change(city, { target: { value: typed } });
      await act(() => vi.advanceTimersByTimeAsync(ADDRESS_LOOKUP_DEBOUNCE_MS - 50));
    }
    expect(cities).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(49));
    expect(cities).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(cities).toEqual(['Bar']);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(cities).toEqual(['Bar']);
  });
});
