import type { SessionItem } from '@panel247/contract/sessions';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { SessionsCard } from './sessions-card';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => vi.unstubAllGlobals());

const current: SessionItem = {
  id: 'a'.repeat(32),
  browser: 'Firefox 133',
  os: 'Windows 10',
  device: 'desktop',
  ip: '192.0.2.1',
  createdAt: 1_800_000_000,
  lastSeenAt: 1_800_000_500,
  current: true,
};
const phone: SessionItem = {
  id: 'b'.repeat(32),
  browser: 'Safari 17',
  os: 'iOS 17.5',
  device: 'mobile',
  ip: '198.51.100.7',
  createdAt: 1_799_990_000,
  lastSeenAt: 1_800_000_100,
  current: false,
};
const unknown: SessionItem = { ...phone, id: 'c'.repeat(32), browser: '', os: '', device: 'other', ip: '203.0.113.9' };

/** Answers the list with `sessions` (what is left after an end), and the end calls with their toast. */
function serve(initial: SessionItem[]) {
  let sessions = initial;
  const calls = stubApi((call) => {
    if (call.path === 'user/sessions/') return envelope({ sessions });
    if (call.path === 'user/sessions/endothers/') {
      const ended = sessions.filter((item) => !item.current).length;
      sessions = sessions.filter((item) => item.current);
      return envelope({ ended }, { info: ['Se han terminado las demás sesiones'] });
    }
    const match = /^user\/sessions\/([0-9a-f]{32})\/end\/$/.exec(call.path);
    if (match) {
      sessions = sessions.filter((item) => item.id !== match[1]);
      return envelope({}, { info: ['Sesión terminada'] });
    }
    return envelope(null, { status: 404 });
  });
  return calls;
}

describe('sessions section', () => {
  it('lists the sessions, this one marked and without an end button, the others with one', async () => {
    serve([current, phone, unknown]);
    renderWithProviders(<SessionsCard />);
    const rows = await screen.findAllByTestId('session-row');
    expect(rows).toHaveLength(3);
    const [mine, other, strange] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(mine).toHaveAttribute('data-current', 'true');
    expect(within(mine).getByText('Firefox 133 en Windows 10')).toBeInTheDocument();
    expect(within(mine).getByText('Esta sesión')).toBeInTheDocument();
    expect(within(mine).getByText(/IP 192\.0\.2\.1 · Activa ahora/)).toBeInTheDocument();
    expect(within(mine).getByText(/Para terminarla, cierra la sesión/)).toBeInTheDocument();
    expect(within(mine).queryByTestId('session-end')).toBeNull();
    expect(within(other).getByText('Safari 17 en iOS 17.5')).toBeInTheDocument();
    expect(within(other).getByText(/IP 198\.51\.100\.7 · Última actividad:/)).toBeInTheDocument();
    expect(within(strange).getByText('Navegador desconocido en sistema desconocido')).toBeInTheDocument();
    // Each end button says which session it ends, for a screen reader and the keyboard.
    expect(
      screen.getByRole('button', { name: 'Terminar la sesión de Safari 17 en iOS 17.5 (198.51.100.7)' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('sessions-end-others')).toBeInTheDocument();
  });

  it('ends one session only after the confirmation, and the list drops it', async () => {
    const calls = serve([current, phone]);
    renderWithProviders(<SessionsCard />);
    fireEvent.click(await screen.findByTestId('session-end'));
    const modal = await screen.findByTestId('session-end-modal');
    expect(within(modal).getByText(/Safari 17 en iOS 17\.5 \(198\.51\.100\.7\)/)).toBeInTheDocument();
    expect(calls.some((call) => call.path.endsWith('/end/'))).toBe(false);
    fireEvent.click(screen.getByTestId('session-end-modal-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(1));
    expect(calls.filter((call) => call.path === `user/sessions/${phone.id}/end/`)).toEqual([
      expect.objectContaining({ method: 'POST' }),
    ]);
    await waitFor(() => expect(screen.queryByTestId('session-end-modal-confirm')).toBeNull());
    expect(screen.getByTestId('sessions-only-this')).toHaveTextContent('No hay ninguna otra sesión abierta.');
    expect(screen.queryByTestId('sessions-end-others')).toBeNull();
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const calls = serve([current, phone]);
    renderWithProviders(<SessionsCard />);
    fireEvent.click(await screen.findByTestId('session-end'));
    const modal = await screen.findByTestId('session-end-modal');
    fireEvent.click(within(modal).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByTestId('session-end-modal-confirm')).toBeNull());
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('ends all other sessions after the confirmation and keeps this one', async () => {
    const calls = serve([current, phone, unknown]);
    renderWithProviders(<SessionsCard />);
    fireEvent.click(await screen.findByTestId('sessions-end-others'));
    fireEvent.click(await screen.findByTestId('sessions-end-others-modal-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(1));
    expect(screen.getByTestId('session-row')).toHaveAttribute('data-current', 'true');
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      'user/sessions/endothers/',
    ]);
  });

  it('says when the list cannot be loaded, and tries again', async () => {
    let fail = true;
    stubApi(() => (fail ? envelope(null, { status: 500 }) : envelope({ sessions: [current] })));
    renderWithProviders(<SessionsCard />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Algo ha ido mal');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByTestId('session-row')).toBeInTheDocument();
    expect(screen.getByTestId('sessions-only-this')).toBeInTheDocument();
  });

  it('shows a loader while the list loads, and the empty text for no session', async () => {
    serve([]);
    renderWithProviders(<SessionsCard />);
    expect(screen.getByLabelText('Cargando…')).toBeInTheDocument();
    expect(await screen.findByTestId('sessions-empty')).toHaveTextContent('No hay ninguna sesión abierta.');
  });
});
