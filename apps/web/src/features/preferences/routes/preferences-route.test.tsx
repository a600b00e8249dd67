import type { ConfigData } from '@panel247/contract/config';
import { THEME_COLORS } from '@panel247/contract/constants';
import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AppContext, type AppContextValue } from '../../../lib/app-context';
import es from '../../../locales/es.json';
import { renderWithProviders } from '../../../test/api-stub';

vi.mock('../../../lib/use-page-title', () => ({ usePageTitle: () => {} }));
const { default: PreferencesRoute } = await import('./preferences-route');

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});

function app(allowColorChange: boolean): AppContextValue {
  const config: ConfigData = {
    company: 'Test Hosting',
    themeConfig: { color: 'indigo', logo: '', logo_mini: '', allowColorChange },
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
    user: { user: 'admin', ip: '127.0.0.1', tsLastLogin: 0, domainName: 'demo.test', language: 'es' },
    refreshSession: async () => null,
    logoUrl: '',
    logoMiniUrl: '',
  };
}

describe('preferences', () => {
  it('offers the 22 colours when the brand allows a change', () => {
    renderWithProviders(
      <AppContext.Provider value={app(true)}>
        <PreferencesRoute />
      </AppContext.Provider>,
    );
    expect(screen.getByTestId('color-picker')).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(THEME_COLORS.length);
    expect(screen.getByRole('radio', { name: 'Índigo' })).toHaveAttribute('aria-checked', 'true');
  });

  it('hides the colour picker when the brand does not allow a change, and keeps the rest', () => {
    renderWithProviders(
      <AppContext.Provider value={app(false)}>
        <PreferencesRoute />
      </AppContext.Provider>,
    );
    expect(screen.queryByTestId('color-picker')).toBeNull();
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
    expect(screen.queryByText('Color principal')).toBeNull();
    expect(screen.getByTestId('language-select')).toBeInTheDocument();
    expect(screen.getByTestId('change-password-open')).toBeInTheDocument();
  });
});
