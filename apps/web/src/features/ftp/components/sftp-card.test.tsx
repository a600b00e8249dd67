import type { SshKey, SshKeyListData } from '@panel247/contract/sftp-keys';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, type StubCall, stubApi } from '../../../test/api-stub';
import { stubDocumentFonts } from '../../../test/document-fonts';
import { emulateScreen } from '../../../test/screen-width';
import { SftpCard } from './sftp-card';

// the key dialog loads when first opened: its module is loaded here, not in the middle of a test
await import('./sftp-key-modal');

let restoreScreen: () => void = () => {};
beforeAll(async () => {
  stubDocumentFonts();
  // jsdom lays nothing out: Mantine's Select scrolls its chosen option into view
  Element.prototype.scrollIntoView ??= () => {};
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
  restoreScreen = emulateScreen();
});
afterAll(() => restoreScreen());
afterEach(() => vi.unstubAllGlobals());

const KEY: SshKey = {
  id: 3,
  name: 'ana@portatil',
  algorithm: 'ssh-ed25519',
  bits: 256,
  fingerprint: 'SHA256:dMzftvVXxsLEN3cj9/67A6WoWt4/efyCVwAy702JqJI',
  login: 'web.test',
  ftpId: null,
  createdAt: 1_790_000_000,
};

/** The FTP page's calls: its main data (SFTP's part), the keys, the accounts, and what `more` answers. */
function stubSftp(
  keys: SshKeyListData,
  login: string | null = 'web.test',
  more: (call: StubCall) => Response | undefined = () => undefined,
) {
  return stubApi((call) => {
    const answered = more(call);
    if (answered) return answered;
    if (call.path === 'service/4/ftp/main/')
      return envelope({
        ftp: { host: 'ftp.web.test', sslHost: 'ftp.web.test', port: 21, webftp: '/' },
        sftp: { host: 'ftp.web.test', port: 2222, login },
        applying: null,
      });
    if (call.path === 'service/4/ftp/keys/') return envelope(keys);
    if (call.path === 'service/4/ftp/list/')
      return envelope({
        ftps: [{ id: 9, user: 'disenio@web.test', directorio: 'web', password: '', eliminable: true }],
      });
    throw new Error(`unexpected call ${call.path}`);
  });
}

describe('SFTP and its keys', () => {
  it('shows where to connect, the service’s own login and each key with its type and fingerprint', async () => {
    stubSftp({ keys: [KEY], maxKeys: 10 });
    renderWithProviders(<SftpCard serviceId={4} canWrite />);
    expect(await screen.findByTestId('sftp-port')).toHaveTextContent('2222');
    expect(screen.getByTestId('sftp-service-login')).toHaveTextContent('web.test');
    const row = await screen.findByTestId('sftp-key-name');
    expect(row).toHaveTextContent('ana@portatil');
    expect(screen.getByTestId('sftp-key-type')).toHaveTextContent('ssh-ed25519 · 256 bits');
    expect(screen.getByTestId('sftp-key-fingerprint')).toHaveTextContent(KEY.fingerprint);
    expect(screen.getByTestId('sftp-intro')).toHaveTextContent('1 de 10 claves de tu plan');
  });

  it('says when the service has no login of its own, and a reader gets no way to change keys', async () => {
    stubSftp({ keys: [], maxKeys: null }, null);
    renderWithProviders(<SftpCard serviceId={4} canWrite={false} />);
    expect(await screen.findByTestId('sftp-service-login-none')).toHaveTextContent('Aún no disponible');
    expect(await screen.findByText('Aún no hay claves SSH.')).toBeInTheDocument();
    expect(screen.queryByTestId('sftp-key-add')).toBeNull();
  });

  it('checks the key before calling, then sends it for the chosen login and lists it', async () => {
    const added: SshKey = { ...KEY, id: 4, name: 'oficina', login: 'disenio@web.test', ftpId: 9 };
    const calls = stubSftp({ keys: [], maxKeys: 10 }, 'web.test', (call) =>
      call.path === 'service/4/ftp/keys/add/' ? envelope({ key: added }, { info: ['Clave SSH añadida'] }) : undefined,
    );
    renderWithProviders(<SftpCard serviceId={4} canWrite />);
    const add = await screen.findByTestId('sftp-key-add');
    await waitFor(() => expect(add).toBeEnabled());
    fireEvent.click(add);
    const form = await screen.findByTestId('sftp-key-form');
    fireEvent.change(within(form).getByTestId('sftp-key-text'), {
      target: { value: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----' },
    });
    fireEvent.click(within(form).getByTestId('sftp-key-submit'));
    expect(await within(form).findByText(/Eso es una clave privada/)).toBeInTheDocument();
    expect(calls.some((call) => call.path.endsWith('keys/add/'))).toBe(false);

    // the service's own login is chosen first; the account is picked instead
    const select = within(form).getByTestId('sftp-key-login-select');
    expect(select).toHaveValue('web.test (todo el servicio)');
    fireEvent.click(select);
    fireEvent.click(await screen.findByRole('option', { name: 'disenio@web.test' }));
    fireEvent.change(within(form).getByTestId('sftp-key-text'), { target: { value: ' ssh-ed25519 AAAAC3Nza x@y ' } });
    fireEvent.change(within(form).getByTestId('sftp-key-name-input'), { target: { value: 'oficina' } });
    await act(async () => fireEvent.click(within(form).getByTestId('sftp-key-submit')));
    await waitFor(() => expect(screen.queryByTestId('sftp-key-form')).toBeNull());
    const sent = calls.find((call) => call.path === 'service/4/ftp/keys/add/') as StubCall;
    expect(Object.fromEntries(sent.params)).toEqual({ ftpId: '9', name: 'oficina', key: 'ssh-ed25519 AAAAC3Nza x@y' });
    expect(await screen.findByTestId('sftp-key-login')).toHaveTextContent('disenio@web.test');
  });

  it('marks the field the server refused', async () => {
    stubSftp({ keys: [], maxKeys: 10 }, 'web.test', (call) =>
      call.path === 'service/4/ftp/keys/add/'
        ? envelope(null, { status: 400, errors: ['Las claves RSA deben tener al menos 2048 bits'], inputs: ['key'] })
        : undefined,
    );
    renderWithProviders(<SftpCard serviceId={4} canWrite />);
    const add = await screen.findByTestId('sftp-key-add');
    await waitFor(() => expect(add).toBeEnabled());
    fireEvent.click(add);
    const form = await screen.findByTestId('sftp-key-form');
    fireEvent.change(within(form).getByTestId('sftp-key-text'), { target: { value: 'ssh-rsa AAAAB3Nza' } });
    fireEvent.click(within(form).getByTestId('sftp-key-submit'));
    // on the field, as well as in the toast
    expect(await within(form).findByText('Las claves RSA deben tener al menos 2048 bits')).toBeInTheDocument();
    expect(within(form).getByTestId('sftp-key-text')).toHaveAttribute('aria-invalid', 'true');
  });

  it('stops adding at the plan’s limit and says why', async () => {
    stubSftp({ keys: [KEY], maxKeys: 1 });
    renderWithProviders(<SftpCard serviceId={4} canWrite />);
    expect(await screen.findByTestId('sftp-limit-hint')).toHaveTextContent('Tu plan permite 1 claves');
    expect(screen.getByTestId('sftp-key-add')).toBeDisabled();
  });

  it('removes a key after asking, naming the login it will no longer open', async () => {
    const calls = stubSftp({ keys: [KEY], maxKeys: 10 }, 'web.test', (call) =>
      call.path === 'service/4/ftp/keys/3/delete/' ? envelope({}, { info: ['Clave SSH eliminada'] }) : undefined,
    );
    renderWithProviders(<SftpCard serviceId={4} canWrite />);
    fireEvent.click(await screen.findByRole('button', { name: 'Quitar la clave ana@portatil' }));
    const dialog = await screen.findByTestId('sftp-remove-modal');
    expect(dialog).toHaveTextContent('Dejará de abrir web.test');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Quitar' })));
    await waitFor(() => expect(screen.queryByTestId('sftp-key-name')).toBeNull());
    expect(calls.filter((call) => call.path === 'service/4/ftp/keys/3/delete/')).toHaveLength(1);
  });
});
