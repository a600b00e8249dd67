import { MantineProvider } from '@mantine/core';
import type { FtpAccount } from '@panel247/contract/ftp';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ftpAccountsQueryKey } from '../../../api/list-ftp-accounts';
import es from '../../../locales/es.json';
import { FtpCreateModal } from './ftp-create-modal';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => vi.unstubAllGlobals());

function renderModal(allowed: boolean, onClose = vi.fn()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData<FtpAccount[]>(ftpAccountsQueryKey(1), []);
  render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">
        <FtpCreateModal opened onClose={onClose} serviceId={1} domain="demo.test" allowed={allowed} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  return { onClose, queryClient };
}

function envelope(data: unknown, info: string[] = []) {
  return new Response(
    JSON.stringify({
      system: { valid: true, errors: [], inputs: [], info, debug: [], job: null, statusCode: 0, mlcVer: '' },
      data,
    }),
    { headers: { 'content-type': 'application/json', 'x-dd': '1' } },
  );
}

describe('FTP create dialog', () => {
  it('appends the domain, and sends the name, the password and the folder from the home', async () => {
    const account: FtpAccount = { id: 7, user: 'web2@demo.test', directorio: 'web', password: '', eliminable: true };
    const fetchMock = vi.fn(async () => envelope({ ftp: account }, ['Cuenta FTP creada']));
    vi.stubGlobal('fetch', fetchMock);
    const { onClose, queryClient } = renderModal(true);
    expect(screen.getByText('@demo.test')).toBeInTheDocument();
    const user = screen.getByTestId('ftp-user-input');
    expect(user).toHaveAttribute('maxlength', '10');
    fireEvent.change(user, { target: { value: 'Web2' } });
    expect(screen.getByTestId('ftp-login-preview')).toHaveTextContent('Usuario de conexión: web2@demo.test');
    fireEvent.click(screen.getByTestId('ftp-password-input-generate'));
    const password = (screen.getByTestId('ftp-password-input') as HTMLInputElement).value;
    expect(password).toHaveLength(14);
    fireEvent.change(screen.getByTestId('ftp-folder-input'), { target: { value: '/web/' } });
    fireEvent.click(screen.getByTestId('ftp-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/p247/service/1/ftp/create/');
    expect(Object.fromEntries(new URLSearchParams(String(init.body)))).toEqual({
      ftpUser: 'Web2',
      password,
      folder: 'web',
    });
    expect(queryClient.getQueryData(ftpAccountsQueryKey(1))).toEqual([account]);
  });

  it('checks the fields before calling', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderModal(true);
    fireEvent.change(screen.getByTestId('ftp-user-input'), { target: { value: '-bad' } });
    fireEvent.change(screen.getByTestId('ftp-folder-input'), { target: { value: '../etc' } });
    fireEvent.click(screen.getByTestId('ftp-submit'));
    await screen.findByText('Usa solo letras, números y . _ - (sin símbolo al principio ni al final)');
    expect(screen.getByText('Este campo es obligatorio')).toBeInTheDocument();
    expect(screen.getByText(/^Usa nombres de carpeta/)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('closes at once without the FTP right', () => {
    const { onClose } = renderModal(false);
    expect(onClose).toHaveBeenCalled();
    expect(screen.queryByTestId('ftp-create-form')).toBeNull();
  });
});
