import type { PermissionSetData } from '@panel247/contract/permissions';
import type { StatsSiteData, StatsSitesData, StatsSummary } from '@panel247/contract/stats';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, type StubCall, stubApi } from '../../../test/api-stub';
import { emulateScreen } from '../../../test/screen-width';

vi.mock('../../../lib/use-page-title', () => ({ usePageTitle: () => {} }));
const { StatsView } = await import('./stats-view');
// the charts load apart from the view: loaded here, not in the middle of a test
await import('./stats-charts');

let restoreScreen: () => void = () => {};
beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
  restoreScreen = emulateScreen();
  Element.prototype.scrollIntoView ??= () => {};
});
afterAll(() => restoreScreen());
afterEach(() => vi.unstubAllGlobals());

function serviceSet(level: 'read' | 'write'): PermissionSetData {
  return {
    id: 4,
    reference: 'demo.test',
    referencePunycode: 'demo.test',
    hasDomain: false,
    hasService: true,
    hasMail: false,
    domain: null,
    service: { expireTS: 0, isRedirAndParking: false },
    mail: null,
    dnszone: null,
    permissions: { service: 'read', service_stats: level },
  } as unknown as PermissionSetData;
}

const SUMMARY: StatsSummary = {
  totals: { visitors: 12, hits: 40, pages: 30, bytes: 3 * 1024 * 1024, notFound: 2 },
  days: [
    { date: '2026-12-01', visitors: 5, hits: 15, bytes: 1000 },
    { date: '2026-12-02', visitors: 7, hits: 25, bytes: 2000 },
  ],
  pages: [{ path: '/tienda/', hits: 20, visitors: 8 }],
  referrers: [],
  statuses: [
    { code: '200', hits: 38 },
    { code: '404', hits: 2 },
  ],
  countries: null,
};

function stubStats(sites: StatsSitesData, site: (call: StubCall) => StatsSiteData) {
  return stubApi((call) => {
    if (call.path === 'service/4/stats/') return envelope(sites);
    if (call.path === 'service/4/stats/site/') return envelope(site(call));
    if (call.path === 'service/4/stats/refresh/')
      return envelope({}, { info: ['Las estadísticas se están actualizando'] });
    throw new Error(`unexpected call ${call.path}`);
  });
}

const render = (level: 'read' | 'write') =>
  renderWithProviders(
    <MemoryRouter>
      <StatsView set={serviceSet(level)} />
    </MemoryRouter>,
  );

describe('site statistics view', () => {
  it('shows the newest month of the first site with statistics: figures, top lists, no countries without GeoIP', async () => {
    stubStats(
      {
        sites: [
          { host: 'demo.test', months: ['2026-12', '2026-11'] },
          { host: 'blog.demo.test', months: [] },
        ],
        refreshSeconds: 3600,
        updatedAt: 1_796_000_000,
      },
      () => ({
        host: 'demo.test',
        month: '2026-12',
        summary: SUMMARY,
        months: [{ month: '2026-12', ...SUMMARY.totals }],
        updatedAt: 1_796_000_000,
      }),
    );
    render('read');
    expect(await screen.findByTestId('stats-total-visitors')).toHaveTextContent('12');
    expect(screen.getByTestId('stats-total-bytes')).toHaveTextContent('3 MB');
    expect(screen.getByTestId('stats-total-hits')).toHaveTextContent('2 no encontradas');
    expect(within(screen.getByTestId('stats-pages')).getByText('/tienda/')).toBeInTheDocument();
    expect(screen.getByTestId('stats-referrers')).toHaveTextContent('Ninguna visita llegó desde otro sitio');
    expect(screen.getByTestId('stats-countries')).toHaveTextContent('no tiene base de datos GeoIP');
    expect(await screen.findByRole('img', { name: /12 visitas en 2 días/ })).toBeInTheDocument();
    expect(screen.getByTestId('stats-updated')).toHaveTextContent('se actualizan cada hora');
    // a reader gets no refresh
    expect(screen.queryByTestId('stats-refresh')).toBeNull();
  });

  it('asks for another month when one is chosen', async () => {
    const calls = stubStats(
      { sites: [{ host: 'demo.test', months: ['2026-12', '2026-11'] }], refreshSeconds: 3600, updatedAt: 0 },
      (call) => {
        const month = call.params.get('month') || '2026-12';
        return {
          host: 'demo.test',
          month,
          summary: { ...SUMMARY, totals: { ...SUMMARY.totals, visitors: month === '2026-11' ? 99 : 12 } },
          months: [],
          updatedAt: 0,
        };
      },
    );
    render('read');
    await screen.findByTestId('stats-total-visitors');
    fireEvent.click(screen.getByTestId('stats-month'));
    fireEvent.click(await screen.findByRole('option', { name: 'noviembre de 2026' }));
    await waitFor(() => expect(screen.getByTestId('stats-total-visitors')).toHaveTextContent('99'));
    expect(calls.some((call) => call.params.get('month') === '2026-11')).toBe(true);
  });

  it('says when a site has no statistics yet, and lets a writer ask for a refresh', async () => {
    const calls = stubStats({ sites: [{ host: 'demo.test', months: [] }], refreshSeconds: 7200, updatedAt: 0 }, () => ({
      host: 'demo.test',
      month: '',
      summary: null,
      months: [],
      updatedAt: 0,
    }));
    render('write');
    expect(await screen.findByTestId('stats-empty')).toHaveTextContent('cada 2 horas');
    await act(async () => fireEvent.click(screen.getByTestId('stats-refresh')));
    await waitFor(() => expect(calls.some((call) => call.path === 'service/4/stats/refresh/')).toBe(true));
  });

  it('says when the service has no sites', async () => {
    stubStats({ sites: [], refreshSeconds: 3600, updatedAt: 0 }, () => {
      throw new Error('no site to ask for');
    });
    render('read');
    expect(await screen.findByTestId('stats-no-sites')).toHaveTextContent('aún no tiene sitios');
  });
});
