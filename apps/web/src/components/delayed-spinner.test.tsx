import { SPINNER_DELAY_MS } from '@panel247/contract/constants';
import { act, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../locales/es.json';
import { renderWithProviders } from '../test/api-stub';
import { DelayedSpinner } from './delayed-spinner';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => vi.useRealTimers());

describe('page spinner', () => {
  it('waits 400 ms (spec section 9) before it shows', async () => {
    expect(SPINNER_DELAY_MS).toBe(400);
    vi.useFakeTimers();
    renderWithProviders(<DelayedSpinner />);
    await act(() => vi.advanceTimersByTimeAsync(399));
    expect(screen.queryByTestId('page-spinner')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('status')).toContainElement(screen.getByTestId('page-spinner'));
    expect(screen.getByRole('status')).toHaveAttribute('aria-label', 'Cargando…');
  });

  it('never shows for a load that ends sooner', async () => {
    vi.useFakeTimers();
    const { unmount } = renderWithProviders(<DelayedSpinner />);
    await act(() => vi.advanceTimersByTimeAsync(250));
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByTestId('page-spinner')).toBeNull();
  });
});
