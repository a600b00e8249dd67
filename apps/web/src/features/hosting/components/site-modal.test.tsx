import { MantineProvider } from '@mantine/core';
import type { SiteCertificate } from '@panel247/contract/certificates';
import type { Subdomain } from '@panel247/contract/hosting';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope as answer, stubApi } from '../../../test/api-stub';
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
    const fetchMock = vi.fn(async (url: string) =>
      url.includes('/certificate/')
        ? envelope({ certificate: null })
        : envelope({ subdomain: { ...secure, directorio: 'www' } }, ['Subdominio guardado']),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { onClose, queryClient } = renderModal({ kind: 'edit', site: secure });
    expect(await screen.findByTestId('hosting-site-host')).toHaveTextContent('secure.demo.test');
    expect(screen.getByTestId('hosting-site-ssl-manual')).toBeChecked();
    expect(screen.queryByTestId('hosting-site-subdomain')).toBeNull();
    expect(screen.getByTestId('hosting-site-key')).toHaveValue('');
    expect(screen.getByText('Hay una clave instalada: déjalo vacío para conservarla.')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('hosting-site-folder-input'), { target: { value: '/www' } });
    fireEvent.click(screen.getByTestId('hosting-site-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
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
    stubApi(() => answer({ certificate: null }));
    wrap(<SitesTable sites={[secure]} serviceId={1} canWrite={false} emptyText="—" busy={false} actions={actions} />);
    expect(screen.getByTestId('hosting-site-ssl')).toHaveTextContent(/^SSL activosecure\.demo\.test · caduca el /);
    expect(screen.getByTestId('hosting-site-ssl-data')).toBeInTheDocument();
    expect(screen.queryByTestId('hosting-site-edit')).toBeNull();
    expect(screen.queryByTestId('hosting-site-delete')).toBeNull();
  });

  it('takes extra row actions (the installer) before edit and delete', () => {
    const extra = vi.fn(() => [{ testId: 'hosting-site-install', label: 'Instalar', icon: null, onClick: vi.fn() }]);
    stubApi(() => answer({ certificate: null }));
    wrap(
      <SitesTable sites={[secure]} serviceId={1} canWrite emptyText="—" busy={false} actions={{ ...actions, extra }} />,
    );
    const ids = Array.from(document.querySelectorAll('tbody [data-testid^="hosting-site-"]'))
      .map((node) => node.getAttribute('data-testid'))
      .filter((id) => id !== 'hosting-site-folder' && id !== 'hosting-site-ssl' && id !== 'hosting-site-acme');
    expect(ids).toEqual(['hosting-site-ssl-data', 'hosting-site-install', 'hosting-site-edit', 'hosting-site-delete']);
  });
});

const automatic = (state: SiteCertificate['state'], extra: Partial<SiteCertificate> = {}): SiteCertificate => ({
  challenge: 'http-01',
  wildcard: false,
  state,
  error: '',
  expiresAt: 0,
  ...extra,
});

describe('automatic SSL', () => {
  it('switches a site to automatic and follows the order step by step to its expiry', async () => {
    const steps = [automatic('validating'), automatic('issued'), automatic('installed', { expiresAt: 4_100_000_000 })];
    let ordered = false;
    const calls = stubApi((call) => {
      if (call.path.endsWith('certificate/auto/')) {
        ordered = true;
        return answer({ certificate: automatic('queued') }, { info: ['Pidiendo el certificado'] });
      }
      if (call.path.endsWith('certificate/'))
        return answer({ certificate: ordered ? (steps.length > 1 ? steps.shift() : steps[0]) : null });
      return answer({ subdomains: [secure], total: 1 });
    });
    renderModal({ kind: 'edit', site: { ...secure, ssl: { ...secure.ssl, enabled: false } } });
    fireEvent.click(await screen.findByTestId('hosting-site-ssl-auto'));
    expect(screen.queryByTestId('hosting-site-pem')).toBeNull();
    // the wildcard goes only with the DNS check
    expect(screen.getByTestId('hosting-site-wildcard')).toBeDisabled();
    fireEvent.click(screen.getByTestId('hosting-site-submit'));
    expect(await screen.findByTestId('hosting-acme-follow')).toBeInTheDocument();
    const auto = calls.find((call) => call.path.endsWith('certificate/auto/'));
    expect(auto?.path).toBe('service/1/subdomain/4/certificate/auto/');
    expect(Object.fromEntries(auto?.params ?? [])).toEqual({ challenge: 'http-01', wildcard: '0' });
    // nothing else of the site changed: no save
    expect(calls.some((call) => call.path.endsWith('/save/'))).toBe(false);
    await waitFor(
      () => expect(screen.getByTestId('hosting-acme-progress')).toHaveAttribute('data-state', 'installed'),
      {
        timeout: 15_000,
      },
    );
    expect(screen.getByTestId('hosting-acme-status')).toHaveTextContent(/^Certificado instalado\. Caduca el /);
    expect(screen.getByTestId('hosting-acme-step-issued')).toHaveAttribute('data-done', 'true');
  }, 30_000);

  it("shows the server's refusal of the DNS check under the field, and asks for a wildcard only with it", async () => {
    const calls = stubApi((call) =>
      call.path.endsWith('certificate/auto/')
        ? answer(null, {
            status: 400,
            errors: ['La comprobación por DNS necesita la zona en los servidores DNS del panel'],
            inputs: ['challenge'],
          })
        : answer({ certificate: null }),
    );
    const { onClose } = renderModal({ kind: 'edit', site: secure });
    fireEvent.click(await screen.findByTestId('hosting-site-ssl-auto'));
    fireEvent.click(screen.getByTestId('hosting-site-challenge-dns'));
    fireEvent.click(screen.getByTestId('hosting-site-wildcard'));
    fireEvent.click(screen.getByTestId('hosting-site-submit'));
    expect(
      await screen.findByText('La comprobación por DNS necesita la zona en los servidores DNS del panel'),
    ).toBeInTheDocument();
    const auto = calls.find((call) => call.path.endsWith('certificate/auto/'));
    expect(Object.fromEntries(auto?.params ?? [])).toEqual({ challenge: 'dns-01', wildcard: '1' });
    expect(screen.getByTestId('hosting-site-form')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('a new site with automatic is created first, then ordered; a refused order leaves the dialog on that site', async () => {
    const shop: Subdomain = {
      ...secure,
      id: 9,
      subdominio: 'shop',
      directorio: 'shop',
      ssl: { ...secure.ssl, enabled: false },
    };
    let refuse = true;
    const calls = stubApi((call) => {
      if (call.path.endsWith('subdomain/create/')) return answer({ subdomain: shop }, { info: ['Subdominio creado'] });
      if (call.path.endsWith('certificate/auto/')) {
        if (refuse) {
          refuse = false;
          return answer(null, { status: 400, errors: ['shop.demo.test no resuelve en el DNS'], inputs: ['challenge'] });
        }
        return answer({ certificate: automatic('queued') }, { info: ['Pidiendo el certificado'] });
      }
      return answer({ certificate: automatic('validating') });
    });
    renderModal({ kind: 'new', subDomain: 'shop' });
    fireEvent.click(screen.getByTestId('hosting-site-ssl-auto'));
    fireEvent.click(screen.getByTestId('hosting-site-submit'));
    expect(await screen.findByText('shop.demo.test no resuelve en el DNS')).toBeInTheDocument();
    const create = calls.find((call) => call.path.endsWith('subdomain/create/'));
    expect(create?.params.get('SSLActive')).toBe('0');
    // the dialog now edits the site it made: trying again only orders
    expect(screen.getByTestId('hosting-site-host')).toHaveTextContent('shop.demo.test');
    fireEvent.click(screen.getByTestId('hosting-site-submit'));
    expect(await screen.findByTestId('hosting-acme-follow')).toBeInTheDocument();
    expect(calls.map((call) => call.path).filter((path) => !path.endsWith('certificate/'))).toEqual([
      'service/1/subdomain/create/',
      'service/1/subdomain/9/certificate/auto/',
      'service/1/subdomain/9/certificate/auto/',
    ]);
  });

  it('from automatic to an uploaded certificate: back to manual first, then the save with SSL on', async () => {
    const calls = stubApi((call) => {
      if (call.path.endsWith('certificate/manual/'))
        return answer({ certificate: null }, { info: ['Ya no se renovará'] });
      if (call.path.endsWith('certificate/'))
        return answer({ certificate: automatic('installed', { expiresAt: 4_100_000_000 }) });
      return answer({ subdomain: secure }, { info: ['Subdominio guardado'] });
    });
    const { onClose } = renderModal({ kind: 'edit', site: secure });
    expect(await screen.findByTestId('hosting-site-ssl-auto')).toBeChecked();
    fireEvent.click(screen.getByTestId('hosting-site-ssl-manual'));
    fireEvent.click(screen.getByTestId('hosting-site-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.map((call) => `${call.method} ${call.path}`).slice(1)).toEqual([
      'POST service/1/subdomain/4/certificate/manual/',
      'POST service/1/subdomain/4/save/',
    ]);
    expect(calls[2]?.params.get('SSLActive')).toBe('1');
  });

  it('shows an automatic certificate in the row: its state dot and expiry, or the reason it failed', async () => {
    const actions = { onSsl: vi.fn(), onEdit: vi.fn(), onDelete: vi.fn() };
    const other = { ...secure, id: 5, subdominio: 'shop' };
    stubApi((call) =>
      answer({
        certificate: call.path.includes('/4/')
          ? automatic('installed', { expiresAt: 4_100_000_000 })
          : automatic('failed', { error: 'La autoridad de certificación no ha podido conectar con el sitio' }),
      }),
    );
    wrap(
      <SitesTable
        sites={[secure, other]}
        serviceId={1}
        canWrite={false}
        emptyText="—"
        busy={false}
        actions={actions}
      />,
    );
    await waitFor(() => expect(screen.getAllByTestId('hosting-site-acme')).toHaveLength(2));
    const [installed, failed] = screen.getAllByTestId('hosting-site-acme');
    expect(installed).toHaveAttribute('data-state', 'installed');
    expect(installed).toHaveTextContent(/^Automático · instaladoCaduca el /);
    expect(failed).toHaveAttribute('data-state', 'failed');
    expect(failed).toHaveTextContent('La autoridad de certificación no ha podido conectar con el sitio');
    // read-only: the state, no controls
    expect(screen.queryByTestId('hosting-site-edit')).toBeNull();
  });
});
