import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../locales/es.json';
import { renderWithProviders } from '../test/api-stub';
import { CopyButton } from './copy-button';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('copy button', () => {
  it('has no tooltip until hovered, then names the copy and says when it is done', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWithProviders(<CopyButton value="v=DKIM1; k=rsa" />);
    expect(screen.queryByRole('tooltip')).toBeNull();
    const button = screen.getByRole('button', { name: 'Copiar' });
    fireEvent.mouseEnter(button);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Copiar');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copiar' })));
    expect(writeText).toHaveBeenCalledWith('v=DKIM1; k=rsa');
    expect(screen.getByRole('button', { name: 'Copiar' })).toHaveAttribute('data-state', 'copied');
    await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent('Copiado'));
  });

  it('says so when the browser refuses the clipboard', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    renderWithProviders(<CopyButton value="secret" label="Copiar el token" />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copiar el token' })));
    expect(screen.getByRole('alert')).toHaveTextContent(es.main.no_copy);
  });
});
