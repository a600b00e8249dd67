import { Button, Modal } from '@mantine/core';
import { SPINNER_DELAY_MS } from '@panel247/contract/constants';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { useState } from 'react';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../locales/es.json';
import { renderWithProviders } from '../test/api-stub';
import { DIALOG_PRELOAD_DELAY_MS, lazyDialog } from './lazy-dialog';

const notifyError = vi.fn();
vi.mock('../lib/notify', async (original) => ({
  ...(await original<typeof import('../lib/notify')>()),
  notifyError: (error: unknown) => notifyError(error),
}));

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => {
  vi.useRealTimers();
  notifyError.mockClear();
});

interface NoteProps {
  note: string | null;
  onClose: () => void;
}

/** The dialog as its own module would export it: a Mantine modal open while it has a note. */
function NoteDialog({ note, onClose }: NoteProps) {
  return (
    <Modal opened={note !== null} onClose={onClose} title="Nota" transitionProps={{ duration: 0 }}>
      <p data-testid="note">{note}</p>
      <Button onClick={onClose}>Cerrar nota</Button>
    </Modal>
  );
}

function Page({ Dialog }: { Dialog: React.ComponentType<NoteProps> }) {
  const [note, setNote] = useState<string | null>(null);
  return (
    <>
      <Button onClick={() => setNote('hola')}>Abrir</Button>
      <Dialog note={note} onClose={() => setNote(null)} />
    </>
  );
}

describe('lazyDialog', () => {
  it('loads nothing while closed, then the dialog on its first open, and gives focus back on close', async () => {
    const load = vi.fn(async () => NoteDialog);
    const Dialog = lazyDialog(load, { note: null });
    renderWithProviders(<Page Dialog={Dialog} />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();

    const opener = screen.getByRole('button', { name: 'Abrir' });
    opener.focus();
    fireEvent.click(opener);
    expect(await screen.findByTestId('note')).toHaveTextContent('hola');
    expect(load).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: 'Cerrar nota' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Mantine gives focus back to the element focused when `opened` changed to true
    await waitFor(() => expect(opener).toHaveFocus());

    // a second open uses the code already loaded
    fireEvent.click(opener);
    expect(await screen.findByTestId('note')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads the code on its own once the browser has been idle a while after the first render', async () => {
    vi.useFakeTimers();
    const load = vi.fn(async () => NoteDialog);
    const Dialog = lazyDialog(load, { note: null });
    renderWithProviders(<Page Dialog={Dialog} />);
    await act(() => vi.advanceTimersByTimeAsync(DIALOG_PRELOAD_DELAY_MS - 1));
    expect(load).not.toHaveBeenCalled();
    // jsdom has no requestIdleCallback: the load starts at the delay
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the page spinner after 400 ms while an opened dialog’s code is still loading', async () => {
    vi.useFakeTimers();
    let finish: (component: typeof NoteDialog) => void = () => undefined;
    const load = vi.fn(() => new Promise<typeof NoteDialog>((resolve) => (finish = resolve)));
    const Dialog = lazyDialog(load, { note: null });
    renderWithProviders(<Page Dialog={Dialog} />);
    fireEvent.click(screen.getByRole('button', { name: 'Abrir' }));
    await act(() => vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS - 1));
    expect(screen.queryByTestId('page-spinner')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('status')).toContainElement(screen.getByTestId('page-spinner'));
    await act(async () => finish(NoteDialog));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.queryByTestId('page-spinner')).toBeNull();
    expect(screen.getByTestId('note')).toHaveTextContent('hola');
  });

  it('says so and closes when its code cannot be loaded, and tries again on the next open', async () => {
    const failure = new TypeError('Failed to fetch dynamically imported module');
    const load = vi.fn<() => Promise<typeof NoteDialog>>().mockRejectedValueOnce(failure).mockResolvedValue(NoteDialog);
    const Dialog = lazyDialog(load, { note: null });
    renderWithProviders(<Page Dialog={Dialog} />);

    fireEvent.click(screen.getByRole('button', { name: 'Abrir' }));
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith(failure));
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Abrir' }));
    expect(await screen.findByTestId('note')).toHaveTextContent('hola');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
