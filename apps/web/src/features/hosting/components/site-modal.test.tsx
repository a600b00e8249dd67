import { MantineProvider } from '@mantine/core';
import type { Subdomain } from '@panel247/contract/hosting';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { emulateScreen } from '../../../test/screen-width';
import { subdomainsQueryKey } from '../api/list-subdomains';
import { SiteModal, type SiteTarget } from './site-modal';
import { SitesTable } from './sites-table';

let restoreScreen: () => void = () => {};
beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
  restoreScreen = emulateScreen();
  // jsdom has no FontFaceSet, which the autosizing text areas listen to
  if (!document.fonts) {
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => {}, removeEventListener: () => {} },
    });
  }
});
afterAll(() => {
  restoreScreen();
});
afterEach(() => vi.unstubAllGlobals());

const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
const secure: Subdomain = {
  id: 4,
  subdominio: 'secure',
  referencePunycode: 'demo.test',
  directorio: 'secure',
  eliminable: true,
  ssl: {
    enabled: true,
    cert: { cert: CERT, key: '', ca: '' },
    info: {
      names: ['secure.demo.test'],
      issuer: 'CN=secure.demo.test',
      validFrom: 1_700_000_000,
      validTo: 4_100_000_000,
      fingerprint: 'AA:BB',
      keyInstalled: true,
    },
  },
};

function envelope(data: unknown, info: string[] = [], fields: [string, string][] = []) {
  const valid = fields.length === 0;
  return new Response(
    JSON.stringify({
      system: {
        valid,
        errors: fields.map(([, message]) => message),
        inputs: fields.map(([field]) => field),
        info,
        debug: [],
        job: null,
        statusCode: valid ? 0 : 400,
        mlcVer: '',
      },
      data,
    }),
    { status: valid ? 200 : 400, headers: { 'content-type': 'application/json', 'x-dd': '1' } },
  );
}

function wrap(node: React.ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData<Subdomain[]>(subdomainsQueryKey(1), [secure]);
  render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">{node}</MantineProvider>
    </QueryClientProvider>,
  );
  return queryClient;
}

function renderModal(target: SiteTarget, allowed = true) {
  const onClose = vi.fn();
  const queryClient = wrap(
    <SiteModal target={target} onClose={onClose} serviceId={1} domain="demo.test" allowed={allowed} />,
  );
  return { onClose, queryClient };
}

describe('site dialog', () => {
  it('edits a site with a key installed: the key field stays empty and nothing of the certificate is sent', async () => {
    const fetchMock = vi.fn(async () =>
      envelope({ subdomain: { ...secure, directorio: 'www' } }, ['Subdominio guardado']),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { onClose, queryClient } = renderModal({ kind: 'edit', site: secure });
    expect(screen.getByTestId('hosting-site-host')).toHaveTextContent('secure.demo.test');
    expect(screen.queryByTestId('hosting-site-subdomain')).toBeNull();
    expect(screen.getByTestId('hosting-site-key')).toHaveValue('');
    expect(screen.getByText('Hay una clave instalada: déjalo vacío para conservarla.')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('hosting-site-folder-input'), { target: { value: '/www' } });
    fireEvent.click(screen.getByTestId('hosting-site-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/p247/service/1/subdomain/4/save/');
    expect(Object.fromEntries(new URLSearchParams(String(init.body)))).toEqual({
      folder: 'www',
      SSLActive: '1',
      cert: '',
      certkey: '',
      certchain: '',
    });
    expect(queryClient.getQueryData<Subdomain[]>(subdomainsQueryKey(1))?.[0]?.directorio).toBe('www');
  });

  it('locks a given subdomain, and keeps what was typed when the server refuses the folder', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope(null, [], [['folder', 'La carpeta sale del alojamiento']])),
    );
    const { onClose } = renderModal({ kind: 'new', subDomain: 'shop' });
    const sub = screen.getByTestId('hosting-site-subdomain');
    expect(sub).toHaveValue('shop');
    expect(sub).toHaveAttribute('readonly');
    expect(screen.getByTestId('hosting-site-folder-input')).toHaveValue('/shop');
    fireEvent.change(screen.getByTestId('hosting-site-folder-input'), { target: { value: '/escape/www' } });
    fireEvent.click(screen.getByTestId('hosting-site-submit'));
    await waitFor(() => expect(screen.getByText('La carpeta sale del alojamiento')).toBeInTheDocument());
    expect(screen.getByTestId('hosting-site-folder-input')).toHaveValue('/escape/www');
    expect(screen.getByTestId('hosting-site-folder-input')).toHaveAttribute('aria-invalid', 'true');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('sites table', () => {
  const actions = { onSsl: vi.fn(), onEdit: vi.fn(), onDelete: vi.fn() };

  it('shows the SSL state with names and expiry; edit and delete only with the right', () => {
    wrap(<SitesTable sites={[secure]} canWrite={false} emptyText="—" busy={false} actions={actions} />);
    expect(screen.getByTestId('hosting-site-ssl')).toHaveTextContent(/^SSL activosecure\.demo\.test · caduca el /);
    expect(screen.getByTestId('hosting-site-ssl-data')).toBeInTheDocument();
    expect(screen.queryByTestId('hosting-site-edit')).toBeNull();
    expect(screen.queryByTestId('hosting-site-delete')).toBeNull();
  });

  it('takes extra row actions (the installer) before edit and delete', () => {
    const extra = vi.fn(() => [{ testId: 'hosting-site-install', label: 'Instalar', icon: null, onClick: vi.fn() }]);
    wrap(<SitesTable sites={[secure]} canWrite emptyText="—" busy={false} actions={{ ...actions, extra }} />);
    const ids = Array.from(document.querySelectorAll('tbody [data-testid^="hosting-site-"]'))
      .map((node) => node.getAttribute('data-testid'))
      .filter((id) => id !== 'hosting-site-folder' && id !== 'hosting-site-ssl');
    expect(ids).toEqual(['hosting-site-ssl-data', 'hosting-site-install', 'hosting-site-edit', 'hosting-site-delete']);
  });
});
