import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { mailPagesQueryKey } from '../api/list-mail';
import type { MailRights } from '../lib/mail-rights';
import { MailCreateModal } from './mail-create-modal';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => vi.unstubAllGlobals());

const BOTH: MailRights = { visible: true, account: true, alias: true };
const ALIAS_ONLY: MailRights = { visible: true, account: false, alias: true };
const ACCOUNT_ONLY: MailRights = { visible: true, account: true, alias: false };
const NONE: MailRights = { visible: true, account: false, alias: false };

/** The first page of the list, as the mail view holds it. */
const PAGE_KEY = [...mailPagesQueryKey(1), { page: 1, filter: '', type: 'all' }];

function renderModal(rights: MailRights, onClose = vi.fn()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(PAGE_KEY, { mail: [], total: 0 });
  render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">
        <MailCreateModal opened onClose={onClose} serviceId={1} domain="demo.test" rights={rights} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  return { onClose, queryClient };
}

const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;

describe('mail create dialog', () => {
  it('starts in alias mode for alias-only users, who cannot switch', () => {
    renderModal(ALIAS_ONLY);
    expect(radio('Alias').checked).toBe(true);
    expect(radio('Cuenta de correo').disabled).toBe(true);
    expect(screen.getByTestId('mail-alias-create-form')).toBeInTheDocument();
  });

  it('starts in account mode for account-only users, who cannot switch', () => {
    renderModal(ACCOUNT_ONLY);
    expect(radio('Cuenta de correo').checked).toBe(true);
    expect(radio('Alias').disabled).toBe(true);
    expect(screen.getByTestId('mail-account-form')).toBeInTheDocument();
  });

  it('lets users with both rights switch', () => {
    renderModal(BOTH);
    expect(radio('Cuenta de correo').checked).toBe(true);
    fireEvent.click(radio('Alias'));
    expect(screen.getByTestId('mail-alias-create-form')).toBeInTheDocument();
  });

  it('closes at once without either right', () => {
    const { onClose } = renderModal(NONE);
    expect(onClose).toHaveBeenCalled();
    expect(screen.queryByTestId('mail-account-form')).toBeNull();
  });

  it('fills the password field with a generated one, shown in clear', () => {
    renderModal(ACCOUNT_ONLY);
    const input = screen.getByTestId('mail-password-input') as HTMLInputElement;
    fireEvent.click(screen.getByTestId('mail-password-input-generate'));
    expect(input.value).toHaveLength(14);
    expect(input.type).toBe('text');
  });

  it('checks targets on blur, keeps the first row, drops empty rows and repeats `target` in the call', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            system: {
              valid: true,
              errors: [],
              inputs: [],
              info: ['Alias creado'],
              debug: [],
              job: null,
              statusCode: 0,
            },
            data: {
              alias: {
                id: 9,
                alias: 'ventas',
                referencePunycode: 'demo.test',
                name: 'a@b.es,c@d.es',
                eliminable: true,
              },
            },
          }),
          { status: 200, headers: { 'content-type': 'application/json', 'x-dd': '1' } },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { onClose, queryClient } = renderModal(ALIAS_ONLY);
    expect(screen.queryAllByTestId('mail-target-remove')).toHaveLength(0);

    // nothing typed: name and at least one target are required
    fireEvent.submit(screen.getByTestId('mail-alias-create-form'));
    expect(await screen.findByText('Indica al menos un destino')).toBeInTheDocument();
    expect(screen.getByText('Este campo es obligatorio')).toBeInTheDocument();

    fireEvent.change(screen.getByTestId('mail-name'), { target: { value: 'ventas' } });
    const first = screen.getAllByTestId('mail-target')[0] as HTMLInputElement;
    fireEvent.change(first, { target: { value: 'a@b' } });
    fireEvent.blur(first);
    expect(await screen.findByText('Introduce una dirección de correo válida')).toBeInTheDocument();
    fireEvent.change(first, { target: { value: 'a@b.es' } });
    expect(screen.queryByText('Introduce una dirección de correo válida')).toBeNull();

    fireEvent.click(screen.getByTestId('mail-target-add'));
    fireEvent.click(screen.getByTestId('mail-target-add'));
    expect(screen.getAllByTestId('mail-target')).toHaveLength(3);
    expect(screen.getAllByTestId('mail-target-remove')).toHaveLength(2);
    fireEvent.change(screen.getAllByTestId('mail-target')[1] as HTMLInputElement, { target: { value: ' c@d.es ' } });
    fireEvent.submit(screen.getByTestId('mail-alias-create-form'));

    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/p247/service/1/alias/create/');
    expect(init.method).toBe('POST');
    expect(String(init.body)).toBe('name=ventas&target=a%40b.es&target=c%40d.es');
    // the list's pages are asked for again (the server places the new row)
    expect(queryClient.getQueryState(PAGE_KEY)?.isInvalidated).toBe(true);
  });

  it('sends an empty name for the whole domain', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            system: { valid: true, errors: [], inputs: [], info: [], debug: [], job: null, statusCode: 0 },
            data: { alias: { id: 3, alias: '', referencePunycode: 'demo.test', name: 'a@b.es', eliminable: true } },
          }),
          { status: 200, headers: { 'content-type': 'application/json', 'x-dd': '1' } },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { onClose } = renderModal(ALIAS_ONLY);
    fireEvent.click(screen.getByTestId('mail-whole-domain'));
    expect((screen.getByTestId('mail-name') as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(screen.getAllByTestId('mail-target')[0] as HTMLInputElement, { target: { value: 'a@b.es' } });
    fireEvent.submit(screen.getByTestId('mail-alias-create-form'));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(String(init.body)).toBe('name=&target=a%40b.es');
  });
});
