import type { BackupJob, BackupSnapshot } from '@panel247/contract/backups';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { RestoreModal } from './restore-modal';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => vi.unstubAllGlobals());

const snapshot: BackupSnapshot = {
  id: 'ab'.repeat(32),
  time: 1_800_000_000,
  size: 2048,
  added: 1024,
  holds: {
    files: true,
    mailboxes: ['info', 'sales'],
    mailFolders: { info: ['.Sent', '.Archive.2024'], sales: [] },
    databases: ['shop'],
    dns: false,
  },
};
const job: BackupJob = { id: 'c'.repeat(32), kind: 'restore', status: 'queued', step: '', error: '' };

function renderModal() {
  const onStarted = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(
    <RestoreModal
      snapshot={snapshot}
      date="15 ene 2027"
      serviceId={4}
      allowed
      onStarted={onStarted}
      onClose={onClose}
    />,
  );
  return { onStarted, onClose };
}

describe('restore dialog', () => {
  it('offers only what the snapshot holds', () => {
    renderModal();
    expect(screen.getByTestId('backups-what-files')).toBeChecked();
    expect(screen.getByTestId('backups-what-mailbox')).toBeInTheDocument();
    expect(screen.getByTestId('backups-what-database')).toBeInTheDocument();
    expect(screen.queryByTestId('backups-what-dns')).toBeNull();
  });

  // booleans travel as 1 and 0, which the contract reads as true and false
  it('sends nothing over the current files until confirmed, then sends overwrite', async () => {
    const calls = stubApi(() => envelope({ job }, { info: ['Restauración en marcha'] }));
    const { onStarted, onClose } = renderModal();
    fireEvent.change(screen.getByTestId('backups-restore-path'), { target: { value: '/site/' } });
    fireEvent.click(screen.getByTestId('backups-restore-submit'));
    await screen.findByText('Confirma que quieres sustituir lo que hay ahora');
    expect(calls).toEqual([]);

    fireEvent.click(screen.getByTestId('backups-restore-confirm'));
    fireEvent.click(screen.getByTestId('backups-restore-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onStarted).toHaveBeenCalledWith(job);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.path).toBe('service/4/backups/restore/');
    expect(Object.fromEntries(calls[0]?.params ?? [])).toMatchObject({
      snapshot: snapshot.id,
      what: 'files',
      path: 'site',
      toFolder: '',
      overwrite: '1',
    });
  });

  it('puts files into a new folder without asking, and never with overwrite', async () => {
    const calls = stubApi(() => envelope({ job }));
    const { onClose } = renderModal();
    fireEvent.click(screen.getByTestId('backups-placement-new'));
    expect(screen.queryByTestId('backups-restore-confirm')).toBeNull();
    fireEvent.change(screen.getByTestId('backups-restore-folder'), { target: { value: 'copy' } });
    fireEvent.click(screen.getByTestId('backups-restore-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(Object.fromEntries(calls[0]?.params ?? [])).toMatchObject({ toFolder: 'copy', overwrite: '0' });
  });

  it("shows the server's field error under its field", async () => {
    stubApi(() =>
      envelope(null, { status: 400, errors: ['Escribe un nombre de carpeta válido'], inputs: ['toFolder'] }),
    );
    renderModal();
    fireEvent.click(screen.getByTestId('backups-placement-new'));
    fireEvent.change(screen.getByTestId('backups-restore-folder'), { target: { value: 'copy' } });
    fireEvent.click(screen.getByTestId('backups-restore-submit'));
    await waitFor(() => expect(screen.getByTestId('backups-restore-folder')).toHaveAttribute('aria-invalid', 'true'));
  });

  it('restores one folder of a mailbox, named as mail programs show it, once confirmed for that folder', async () => {
    const calls = stubApi(() => envelope({ job }));
    const { onClose } = renderModal();
    fireEvent.click(screen.getByTestId('backups-what-mailbox'));
    const folder = screen.getByTestId('backups-restore-mail-folder');
    expect(Array.from((folder as HTMLSelectElement).options).map((option) => option.text)).toEqual([
      'Todo el buzón (la bandeja de entrada y todas las carpetas)',
      'Sent',
      'Archive / 2024',
    ]);
    fireEvent.change(folder, { target: { value: '.Archive.2024' } });
    expect(
      screen.getByText('Entiendo que el correo actual de la carpeta Archive / 2024 se sustituirá por el de la copia'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('backups-restore-confirm'));
    fireEvent.click(screen.getByTestId('backups-restore-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(Object.fromEntries(calls[0]?.params ?? [])).toMatchObject({
      what: 'mailbox',
      mailbox: 'info',
      mailFolder: '.Archive.2024',
      overwrite: '1',
    });
  });

  it('offers no folder for a mailbox the snapshot holds none of, and forgets the folder of another', () => {
    renderModal();
    fireEvent.click(screen.getByTestId('backups-what-mailbox'));
    fireEvent.change(screen.getByTestId('backups-restore-mail-folder'), { target: { value: '.Sent' } });
    fireEvent.change(screen.getByTestId('backups-restore-mailbox'), { target: { value: 'sales' } });
    expect(screen.queryByTestId('backups-restore-mail-folder')).toBeNull();
    fireEvent.change(screen.getByTestId('backups-restore-mailbox'), { target: { value: 'info' } });
    expect(screen.getByTestId('backups-restore-mail-folder')).toHaveValue('');
  });
});
