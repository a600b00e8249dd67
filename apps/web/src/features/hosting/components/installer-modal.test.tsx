import { MantineProvider } from '@mantine/core';
import { PERMISSION_KEYS, type PermissionLevel } from '@panel247/contract/constants';
import type { HostedDatabase } from '@panel247/contract/databases';
import type { InstallJob } from '@panel247/contract/installer';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { useState } from 'react';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppContext, type AppContextValue } from '../../../lib/app-context';
import es from '../../../locales/es.json';
import { emulateScreen } from '../../../test/screen-width';
import { buildApp, buildDatabase, buildInput, buildSite } from '../lib/installer-fixtures';
import { InstallerModal, type InstallerTarget } from './installer-modal';
import { SitesView } from './sites-view';

const notifyErrorText = vi.fn();
vi.mock('../../../lib/notify', async (original) => ({
  ...(await original<typeof import('../../../lib/notify')>()),
  notifyErrorText: (key: string) => notifyErrorText(key),
  notifyError: vi.fn(),
}));

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    // as the app has it: React escapes
    interpolation: { escapeValue: false },
  });
  // jsdom has no FontFaceSet, which the autosizing text areas listen to
  if (!document.fonts) {
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => {}, removeEventListener: () => {} },
    });
  }
});
afterEach(() => {
  vi.unstubAllGlobals();
  notifyErrorText.mockClear();
});

function permissionSet(overrides: Partial<Record<(typeof PERMISSION_KEYS)[number], PermissionLevel>> = {}) {
  const permissions = Object.fromEntries(
    PERMISSION_KEYS.map((key) => [key, 'write']),
  ) as PermissionSetData['permissions'];
  return {
    id: 1,
    reference: 'demo.test',
    referencePunycode: 'demo.test',
    permissions: { ...permissions, ...overrides },
    hasDomain: true,
    hasService: true,
    hasMail: true,
    domain: null,
    service: { expireTS: 4_100_000_000, isRedirAndParking: false },
    mail: null,
    dnszone: null,
  } satisfies PermissionSetData;
}

const MAIN = buildSite({ id: 3, subdominio: '', directorio: '', eliminable: false });
const BLOG = buildSite();
const GUESTBOOK = buildApp();
const LANDING = buildApp({
  id: 2,
  fullName: 'Landing page',
  softName: 'landing',
  category: 'cms',
  type: 'js',
  size: 52_429,
  featured: true,
  isBBDDApplication: false,
  installConfig: [{ title: '', inputs: [buildInput({ name: 'title', isRequired: true })] }],
});

function job(overrides: Partial<InstallJob> = {}): InstallJob {
  return {
    id: 'a'.repeat(32),
    kind: 'installapp',
    status: 'queued',
    progress: 0,
    result: null,
    error: null,
    ...overrides,
  };
}

function envelope(data: unknown, fields: [string, string][] = [], status = 200, errors: string[] = []) {
  const valid = fields.length === 0 && errors.length === 0 && status < 300;
  return new Response(
    JSON.stringify({
      system: {
        valid,
        errors: [...fields.map(([, message]) => message), ...errors],
        inputs: fields.map(([field]) => field),
        info: [],
        debug: [],
        job: null,
        statusCode: valid ? 0 : status,
        mlcVer: '',
      },
      data,
    }),
    { status, headers: { 'content-type': 'application/json', 'x-dd': '1' } },
  );
}

type Handler = (body: URLSearchParams) => Response;
interface Call {
  path: string;
  body: URLSearchParams;
}

/** The API as these tests need it; any route can be replaced. Returns the calls made, in order. */
function serve(
  overrides: Record<string, Handler> = {},
  databases: { ddbb: HostedDatabase[]; limit: number } = { ddbb: [], limit: 3 },
) {
  const routes: Record<string, Handler> = {
    'permission/1/': () => envelope(permissionSet()),
    'service/1/subdomain/list/': () => envelope({ subdomains: [BLOG, MAIN] }),
    'hostingapplication/list/': () => envelope({ apps: [GUESTBOOK, LANDING] }),
    'service/1/ddbb/list/': () => envelope(databases),
    'service/1/ddbb/create/': () => envelope({ ddbb: buildDatabase(21) }),
    'service/1/installapp/': () => envelope({ job: job() }),
    [`job/${'a'.repeat(32)}/`]: () =>
      envelope({
        job: job({ status: 'done', progress: 100, result: { url: 'http://demo.test/guest/', folder: '/guest' } }),
      }),
    ...overrides,
  };
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.replace(/^\/p247\//, '').split('?')[0] ?? '';
      const body = new URLSearchParams(typeof init.body === 'string' ? init.body : '');
      calls.push({ path, body });
      const handler = routes[path];
      return handler ? handler(body) : envelope(null, [], 404);
    }),
  );
  return calls;
}

function providers(node: React.ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">{node}</MantineProvider>
    </QueryClientProvider>
  );
}

function renderInstaller(target: InstallerTarget, set = permissionSet()) {
  const onClose = vi.fn();
  render(providers(<InstallerModal target={target} onClose={onClose} set={set} />));
  return { onClose };
}

const next = () => fireEvent.click(screen.getByTestId('installer-next'));
const activeStep = () =>
  Array.from(document.querySelectorAll('[data-testid^="installer-step-"][aria-current="step"]')).map((node) =>
    node.getAttribute('data-testid'),
  );

async function pickApp(name: RegExp) {
  fireEvent.click(await screen.findByRole('radio', { name }));
}

describe('application installer', () => {
  it('runs the four steps from the toolbar: a new database is forced without databases, then installs', async () => {
    const calls = serve();
    renderInstaller({ site: null });
    expect(activeStep()).toEqual(['installer-step-0']);
    expect(screen.queryByTestId('installer-back')).toBeNull();

    // step 0: a site must be chosen; the main domain comes first
    const sites = await screen.findAllByTestId('installer-site');
    expect(sites.map((radio) => radio.getAttribute('value'))).toEqual(['3', '7']);
    next();
    expect(await screen.findByText('Elige un sitio')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'demo.test' }));
    next();

    // step 1: the catalogue, featured first with its size in MB
    await waitFor(() => expect(activeStep()).toEqual(['installer-step-1']));
    const apps = await screen.findAllByTestId('installer-app');
    expect(apps.map((radio) => radio.getAttribute('data-name'))).toEqual(['landing', 'guestbook']);
    expect(screen.getAllByTestId('installer-app-meta').map((node) => node.textContent)).toEqual([
      'Gestores de contenidos · JavaScript · 0,05 MB',
      'Libros de visitas · PHP · 1,50 MB',
    ]);
    expect(screen.getAllByTestId('installer-app-featured')).toHaveLength(1);
    next();
    expect(await screen.findByText('Elige una aplicación')).toBeInTheDocument();
    await pickApp(/Guestbook/);
    next();

    // step 2: no database yet, so a new one is forced (on, and cannot be turned off)
    await waitFor(() => expect(activeStep()).toEqual(['installer-step-2']));
    const forced = await screen.findByTestId('installer-new-database');
    expect(forced).toBeChecked();
    expect(forced).toBeDisabled();
    expect(screen.getByText('El servicio no tiene bases de datos: se creará una nueva.')).toBeInTheDocument();
    expect(screen.queryByTestId('installer-database-select')).toBeNull();
    fireEvent.change(screen.getByTestId('installer-subpath'), { target: { value: '/guest/' } });
    expect(screen.getByTestId('installer-target')).toHaveTextContent(
      'Se instalará en la carpeta /guest y responderá en http://demo.test/guest/',
    );
    next();

    // step 3: the inputs by type; required ones are enforced before anything is sent
    await waitFor(() => expect(activeStep()).toEqual(['installer-step-3']));
    expect(screen.getByTestId('installer-cfg-site_title')).toHaveValue('My guestbook');
    expect(screen.getByTestId('installer-cfg-language')).toHaveValue('es');
    expect(screen.getByTestId('installer-cfg-moderate')).not.toBeChecked();
    expect(screen.queryByTestId('installer-cfg-theme')).toBeNull();
    const password = screen.getByTestId('installer-cfg-admin_password');
    expect(password).toHaveValue('');
    fireEvent.click(screen.getByTestId('installer-install'));
    expect(await screen.findAllByText('Este campo es obligatorio')).toHaveLength(2);
    expect(calls.some((call) => call.path === 'service/1/installapp/')).toBe(false);

    fireEvent.change(screen.getByTestId('installer-cfg-admin_email'), { target: { value: 'me@demo.test' } });
    fireEvent.click(screen.getByTestId('installer-cfg-admin_password-generate'));
    expect((password as HTMLInputElement).value).toHaveLength(14);
    fireEvent.click(screen.getByTestId('installer-install'));

    // the database first (a generated password), then the install with its id, then the job
    const success = await screen.findByTestId('installer-success');
    expect(within(success).getByTestId('installer-success-url')).toHaveAttribute('href', 'http://demo.test/guest/');
    expect(within(success).getByText('Guestbook está instalada.')).toBeInTheDocument();
    const paths = calls.map((call) => call.path);
    expect(paths.filter((path) => path === 'permission/1/')).toHaveLength(2);
    const order = ['service/1/ddbb/create/', 'service/1/installapp/', `job/${'a'.repeat(32)}/`];
    expect(order.map((path) => paths.indexOf(path))).toEqual([...order.map((path) => paths.indexOf(path))].sort());
    expect(calls.find((call) => call.path === 'service/1/ddbb/create/')?.body.get('password')).toHaveLength(14);
    const installed = calls.find((call) => call.path === 'service/1/installapp/');
    expect(Object.fromEntries(installed?.body ?? [])).toEqual({
      subdomainID: '3',
      applicationID: '1',
      mysqlID: '21',
      subpath: 'guest',
      cfg_site_title: 'My guestbook',
      cfg_admin_email: 'me@demo.test',
      cfg_admin_password: (password as HTMLInputElement).value,
      cfg_welcome: '',
      cfg_language: 'es',
      cfg_theme: 'classic',
    });
  });

  it('opened from a row: starts at step 1 with the site fixed, and Back goes one step, never to step 0', async () => {
    serve();
    renderInstaller({ site: BLOG });
    expect(activeStep()).toEqual(['installer-step-1']);
    expect(screen.queryByTestId('installer-site')).toBeNull();
    expect(screen.queryByTestId('installer-back')).toBeNull();
    await pickApp(/Landing page/);
    expect(screen.getByTestId('installer-summary')).toHaveTextContent('blog.demo.test · Landing page 1.2');
    next();
    await waitFor(() => expect(activeStep()).toEqual(['installer-step-2']));
    // no database for this one
    expect(screen.queryByTestId('installer-database')).toBeNull();
    expect(screen.getByTestId('installer-target')).toHaveTextContent('/blog y responderá en http://blog.demo.test/');
    next();
    await waitFor(() => expect(activeStep()).toEqual(['installer-step-3']));
    fireEvent.click(screen.getByTestId('installer-back'));
    await waitFor(() => expect(activeStep()).toEqual(['installer-step-2']));
    fireEvent.click(screen.getByTestId('installer-back'));
    await waitFor(() => expect(activeStep()).toEqual(['installer-step-1']));
    expect(screen.queryByTestId('installer-back')).toBeNull();
    expect(screen.getByRole('radio', { name: /Landing page/ })).toBeChecked();
  });

  it('preselects the last database under the limit, and fixes the new-database option off at the limit', async () => {
    serve({}, { ddbb: [buildDatabase(5), buildDatabase(8)], limit: 5 });
    renderInstaller({ site: BLOG });
    await pickApp(/Guestbook/);
    next();
    const choice = await screen.findByTestId('installer-new-database');
    expect(choice).not.toBeChecked();
    expect(choice).toBeEnabled();
    expect(screen.getByTestId('installer-database-select')).toHaveValue('8');
    fireEvent.click(choice);
    expect(choice).toBeChecked();
    expect(screen.queryByTestId('installer-database-select')).toBeNull();
  });

  it('at the plan’s limit an existing database must be chosen', async () => {
    serve({}, { ddbb: [buildDatabase(5), buildDatabase(8)], limit: 2 });
    renderInstaller({ site: BLOG });
    await pickApp(/Guestbook/);
    next();
    const choice = await screen.findByTestId('installer-new-database');
    expect(choice).not.toBeChecked();
    expect(choice).toBeDisabled();
    expect(
      screen.getByText('Has llegado al límite de 2 bases de datos del plan: elige una existente.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('installer-database-select')).toHaveValue('8');
  });

  it('puts a server field error under its field, on its step; a failed job shows in the error dialog', async () => {
    let installs = 0;
    const calls = serve(
      {
        'service/1/installapp/': () =>
          ++installs === 1 ? envelope(null, [['subpath', 'Esa carpeta no está vacía']], 400) : envelope({ job: job() }),
        [`job/${'a'.repeat(32)}/`]: () =>
          envelope({
            job: job({
              status: 'failed',
              progress: 40,
              error: { name: 'Sin espacio', message: 'El plan no tiene sitio.' },
            }),
          }),
      },
      { ddbb: [buildDatabase(5)], limit: 5 },
    );
    renderInstaller({ site: BLOG });
    await pickApp(/Landing page/);
    next();
    await screen.findByTestId('installer-subpath');
    next();
    fireEvent.change(await screen.findByTestId('installer-cfg-title'), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByTestId('installer-install'));

    await waitFor(() => expect(activeStep()).toEqual(['installer-step-2']));
    expect(screen.getByTestId('installer-subpath')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Esa carpeta no está vacía')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('installer-subpath'), { target: { value: 'other' } });
    expect(screen.queryByText('Esa carpeta no está vacía')).toBeNull();
    next();
    await waitFor(() => expect(activeStep()).toEqual(['installer-step-3']));
    expect(screen.getByTestId('installer-cfg-title')).toHaveValue('Hello');
    fireEvent.click(screen.getByTestId('installer-install'));

    const failure = await screen.findByTestId('installer-error-message');
    expect(failure).toHaveTextContent('El plan no tiene sitio.');
    expect(screen.getByRole('dialog', { name: 'Sin espacio' })).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('installer-error-accept'));
    expect(await screen.findByTestId('installer-install')).toBeInTheDocument();
    expect(screen.queryByTestId('installer-error-message')).toBeNull();
    // no database was made for an application without one
    expect(calls.some((call) => call.path === 'service/1/ddbb/create/')).toBe(false);
    expect(
      calls.filter((call) => call.path === 'service/1/installapp/').map((call) => call.body.get('subpath')),
    ).toEqual(['', 'other']);
  });

  it('an install refused without a field shows the error dialog with its message', async () => {
    serve({ 'service/1/installapp/': () => envelope(null, [], 409, ['El instalador está ocupado']) });
    renderInstaller({ site: BLOG });
    await pickApp(/Landing page/);
    next();
    next();
    fireEvent.change(await screen.findByTestId('installer-cfg-title'), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByTestId('installer-install'));
    expect(await screen.findByTestId('installer-error-message')).toHaveTextContent('El instalador está ocupado');
    expect(screen.getByRole('dialog', { name: 'No se pudo instalar' })).toBeInTheDocument();
  });

  it('says "no permission" and closes when the reloaded set lacks one of the three actions', async () => {
    const calls = serve({ 'permission/1/': () => envelope(permissionSet({ service_ddbb: 'read' })) });
    const { onClose } = renderInstaller({ site: null });
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(notifyErrorText).toHaveBeenCalledWith('main.no_permission');
    expect(calls[0]?.path).toBe('permission/1/');
  });

  it('checks the rights again just before installing', async () => {
    let reads = 0;
    const calls = serve({
      'permission/1/': () => envelope(permissionSet(++reads > 1 ? { service_ftp: 'read' } : {})),
    });
    const { onClose } = renderInstaller({ site: BLOG });
    await pickApp(/Landing page/);
    next();
    next();
    fireEvent.change(await screen.findByTestId('installer-cfg-title'), { target: { value: 'Hello' } });
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('installer-install'));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(notifyErrorText).toHaveBeenCalledWith('main.no_permission');
    expect(calls.some((call) => call.path === 'service/1/installapp/')).toBe(false);
  });

  it('closes when the shown set loses a right while it is open', async () => {
    serve();
    const { onClose } = renderInstaller({ site: null }, permissionSet({ service_subdomains: 'read' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(notifyErrorText).toHaveBeenCalledTimes(1);
  });

  it('starts afresh after closing', async () => {
    serve();
    function Harness() {
      const [target, setTarget] = useState<InstallerTarget | null>(null);
      return (
        <>
          <button type="button" onClick={() => setTarget({ site: null })}>
            open
          </button>
          <InstallerModal target={target} onClose={() => setTarget(null)} set={permissionSet()} />
        </>
      );
    }
    render(providers(<Harness />));
    fireEvent.click(screen.getByText('open'));
    fireEvent.click(await screen.findByRole('radio', { name: 'blog.demo.test' }));
    next();
    await pickApp(/Guestbook/);
    next();
    await screen.findByTestId('installer-subpath');
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByTestId('installer-stepper')).toBeNull());

    fireEvent.click(screen.getByText('open'));
    await waitFor(() => expect(activeStep()).toEqual(['installer-step-0']));
    const radios = await screen.findAllByTestId('installer-site');
    expect(radios.some((radio) => (radio as HTMLInputElement).checked)).toBe(false);
    expect(screen.queryByTestId('installer-summary')).toBeNull();
  });
});

describe('application installer with one site', () => {
  it('comes with that site chosen in step 0', async () => {
    serve({ 'service/1/subdomain/list/': () => envelope({ subdomains: [MAIN] }) });
    renderInstaller({ site: null });
    const [only] = await screen.findAllByTestId('installer-site');
    await waitFor(() => expect((only as HTMLInputElement).checked).toBe(true));
    next();
    await waitFor(() => expect(activeStep()).toEqual(['installer-step-1']));
  });
});

describe('sites view', () => {
  const app = { config: { company: '' } } as AppContextValue;

  function renderView(set: PermissionSetData) {
    serve();
    render(
      providers(
        <AppContext.Provider value={app}>
          <MemoryRouter>
            <SitesView set={set} />
          </MemoryRouter>
        </AppContext.Provider>,
      ),
    );
  }

  it('offers the installer in the toolbar and on each row with the three actions', async () => {
    const restoreScreen = emulateScreen();
    try {
      renderView(permissionSet());
      expect(await screen.findAllByTestId('hosting-site-install')).toHaveLength(2);
      expect(screen.getByRole('button', { name: 'Instalar una aplicación en blog.demo.test' })).toBeInTheDocument();
      fireEvent.click(screen.getByTestId('hosting-install'));
      expect(await screen.findByTestId('installer-stepper')).toBeInTheDocument();
    } finally {
      restoreScreen();
    }
  });

  it('offers it nowhere without one of them', async () => {
    renderView(permissionSet({ service_ftp: 'read' }));
    await screen.findByTestId('hosting-site-list');
    expect(screen.queryByTestId('hosting-install')).toBeNull();
    expect(screen.queryByTestId('hosting-site-install')).toBeNull();
    expect(screen.getByTestId('hosting-site-create')).toBeInTheDocument();
  });
});
