import type { ConfigData } from '@panel247/contract/config';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppContext, type AppContextValue } from '../../../lib/app-context';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';

vi.mock('../../../lib/use-page-title', () => ({ usePageTitle: () => {} }));
const { default: InvitationRoute } = await import('./invitation-route');

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => vi.unstubAllGlobals());

const TOKEN = `${'A'.repeat(40)}_-9`;

function app(): AppContextValue {
  const config: ConfigData = {
    company: 'Test Hosting',
    themeConfig: { color: 'indigo', logo: '', logo_mini: '', allowColorChange: true },
    defaultLanguage: 'es',
    language: 'es',
    channel: 'test',
    basePath: '/p247/',
    captcha: { provider: 'none', siteKey: '', challengeUrl: '' },
  };
  return {
    config,
    configLoaded: true,
    language: 'es',
    setLanguage: async () => {},
    color: 'indigo',
    setColor: () => {},
    user: null,
    refreshSession: async () => null,
    logoUrl: '/logo.svg',
    logoMiniUrl: '/logo-mini.svg',
  };
}

function serve(check: () => Response) {
  return stubApi((call) => {
    if (call.path === 'invitation/check/') return check();
    if (call.path === 'invitation/accept/') {
      return envelope({ domainName: 'demo.test', username: 'pere' }, { info: ['Contraseña guardada'] });
    }
    return envelope(null, { status: 404 });
  });
}

const valid = () => envelope({ domainName: 'demo.test', username: 'pere', expiresAt: 1_900_000_000 });

function renderPage(address = `/invitation/#${TOKEN}`) {
  return renderWithProviders(
    <AppContext.Provider value={app()}>
      <MemoryRouter initialEntries={[address]}>
        <Routes>
          <Route path="/invitation/" element={<InvitationRoute />} />
          <Route path="/login/" element={<p data-testid="login-page">login</p>} />
        </Routes>
      </MemoryRouter>
    </AppContext.Provider>,
  );
}

function type(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

describe('the invitation page', () => {
  it('checks the link from the fragment, then asks for the password for that user and domain', async () => {
    const calls = serve(valid);
    renderPage();
    expect(await screen.findByTestId('invitation-for')).toHaveTextContent(
      'Establece la contraseña de pere en demo.test.',
    );
    expect(calls[0]).toMatchObject({ path: 'invitation/check/', method: 'POST' });
    expect(calls[0]?.params.get('token')).toBe(TOKEN);
    expect(screen.getByRole('heading', { name: 'Elige tu contraseña' })).toBeInTheDocument();
    expect(screen.getByTestId('language-select')).toBeInTheDocument();
    expect(screen.getByTestId('theme-mode')).toBeInTheDocument();
  });

  it('refuses two passwords that differ, without calling', async () => {
    const calls = serve(valid);
    renderPage();
    await screen.findByTestId('invitation-form');
    type('invitation-password', 'correct horse battery');
    type('invitation-repeat', 'correct horse battery!');
    fireEvent.click(screen.getByTestId('invitation-submit'));
    expect(await screen.findByText('Las contraseñas no coinciden')).toBeInTheDocument();
    expect(calls.some((call) => call.path === 'invitation/accept/')).toBe(false);
  });

  it('sets the password, says so, and leads to the login page', async () => {
    const calls = serve(valid);
    renderPage();
    await screen.findByTestId('invitation-form');
    type('invitation-password', 'correct horse battery');
    type('invitation-repeat', 'correct horse battery');
    fireEvent.click(screen.getByTestId('invitation-submit'));
    expect(await screen.findByTestId('invitation-done')).toHaveTextContent(
      'Ya puedes iniciar sesión como pere en demo.test.',
    );
    const accept = calls.find((call) => call.path === 'invitation/accept/');
    expect(accept?.method).toBe('POST');
    expect(Object.fromEntries(accept?.params ?? [])).toEqual({ token: TOKEN, password: 'correct horse battery' });
    fireEvent.click(screen.getByTestId('invitation-login'));
    expect(await screen.findByTestId('login-page')).toBeInTheDocument();
  });

  it('shows the server’s field error under the password', async () => {
    stubApi((call) =>
      call.path === 'invitation/check/'
        ? valid()
        : envelope(null, { status: 400, inputs: ['password'], errors: ['La contraseña es demasiado común'] }),
    );
    renderPage();
    await screen.findByTestId('invitation-form');
    type('invitation-password', 'password1234');
    type('invitation-repeat', 'password1234');
    fireEvent.click(screen.getByTestId('invitation-submit'));
    expect(await screen.findByText('La contraseña es demasiado común')).toBeInTheDocument();
    expect(screen.getByTestId('invitation-form')).toBeInTheDocument();
  });

  it('says why a refused link does not work, with the way to the login page', async () => {
    serve(() =>
      envelope(null, { status: 410, errors: ['Este enlace de invitación ha caducado. Pide otro a quien te invitó.'] }),
    );
    renderPage();
    expect(await screen.findByTestId('invitation-invalid')).toHaveTextContent(
      'Este enlace de invitación ha caducado. Pide otro a quien te invitó.',
    );
    expect(screen.queryByTestId('invitation-form')).toBeNull();
    fireEvent.click(screen.getByTestId('invitation-login'));
    expect(await screen.findByTestId('login-page')).toBeInTheDocument();
  });

  it('words a bare error key the server sent, and asks nothing without a token', async () => {
    serve(() => envelope(null, { status: 404, errors: ['users.invitation_invalid'] }));
    renderPage();
    expect(await screen.findByTestId('invitation-invalid')).toHaveTextContent(
      'Este enlace de invitación no es válido o ya se ha usado.',
    );

    const calls = serve(valid);
    renderPage('/invitation/');
    await waitFor(() => expect(screen.getAllByTestId('invitation-invalid')).toHaveLength(2));
    expect(screen.getByText(/está incompleto/)).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
