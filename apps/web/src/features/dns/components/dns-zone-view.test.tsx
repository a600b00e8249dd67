import type { DnsRecord } from '@panel247/contract/dns';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { act, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, heldResponse, renderWithProviders, stubApi } from '../../../test/api-stub';
import { emulateScreen } from '../../../test/screen-width';
import { DnsRecordTable } from './dns-record-table';

vi.mock('../../../lib/use-page-title', () => ({ usePageTitle: () => {} }));
const { DnsZoneView } = await import('./dns-zone-view');

let restoreScreen: () => void = () => {};
beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
  restoreScreen = emulateScreen();
});
afterAll(() => {
  restoreScreen();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const set = {
  id: 3,
  reference: 'demo.test',
  referencePunycode: 'demo.test',
  hasDomain: false,
  hasService: true,
  hasMail: false,
  domain: null,
  service: { expireTS: 0, isRedirAndParking: false },
  permissions: { service_dnszone: 'write' },
} as unknown as PermissionSetData;

/** The DNSSEC card's call, answered as a server that cannot sign (the card has tests of its own). */
const dnssecAnswer = (path: string) =>
  path === 'service/3/dns/dnssec/'
    ? envelope({ state: 'unavailable', ds: [], writable: true, registry: false, job: null })
    : undefined;

describe('DNS zone view', () => {
  it('shows the skeleton only once the list has been loading for 400 ms', async () => {
    vi.useFakeTimers();
    const held = heldResponse();
    stubApi((call) => dnssecAnswer(call.path) ?? held.promise);
    renderWithProviders(<DnsZoneView set={set} />);
    await act(() => vi.advanceTimersByTimeAsync(399));
    expect(screen.queryByTestId('dns-skeleton')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(2));
    expect(screen.getByTestId('dns-skeleton')).toHaveAttribute('role', 'status');
    held.release(envelope({ dnss: [], total: 0 }));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.queryByTestId('dns-skeleton')).toBeNull();
  });

  it('says the zone has no records when it is fully empty (no filter)', async () => {
    const calls = stubApi((call) => dnssecAnswer(call.path) ?? envelope({ dnss: [], total: 0 }));
    renderWithProviders(<DnsZoneView set={set} />);
    expect(await screen.findByText('La zona no tiene registros')).toBeInTheDocument();
    expect(screen.queryByText('Ningún registro coincide con el filtro')).toBeNull();
    expect(screen.queryByTestId('dns-pagination')).toBeNull();
    const listCall = calls.find((call) => call.path === 'service/3/dns/list/');
    expect(listCall).toMatchObject({ method: 'GET' });
    expect(listCall?.params.get('page')).toBe('1');
  });

  it('shows the history, a change set’s diff, and a refused revert’s reason beside it', async () => {
    const change = { id: 7, at: 1_790_000_000, who: 'ana', kind: 'edit', refersTo: null, rrsets: 1 };
    const record = (value: string) => ({ ttl: 0, priority: 0, value, dynamicValue: '', eliminable: true });
    const calls = stubApi((call) => {
      const dnssec = dnssecAnswer(call.path);
      if (dnssec) return dnssec;
      if (call.path === 'service/3/dns/history/') return envelope({ changes: [change], total: 1 });
      if (call.path === 'service/3/dns/history/7/') {
        const rrset = { zona: 'www', type: 'A', before: [record('192.0.2.1')], after: [record('192.0.2.2')] };
        return envelope({ change, rrsets: [rrset], total: 1 });
      }
      if (call.path === 'service/3/dns/history/7/revert/') {
        return envelope({}, { status: 409, errors: ['No se puede revertir: www.demo.test. A ha vuelto a cambiar'] });
      }
      return envelope({ dnss: [], total: 0 });
    });
    renderWithProviders(<DnsZoneView set={set} />);
    expect(await screen.findByText('Registro editado')).toBeInTheDocument();
    expect(screen.getByText('ana')).toBeInTheDocument();
    act(() => screen.getByRole('button', { name: 'Cambios de 7' }).click());
    expect(await screen.findByText('- www.demo.test A 192.0.2.1 (Por defecto)')).toBeInTheDocument();
    expect(screen.getByText('+ www.demo.test A 192.0.2.2 (Por defecto)')).toBeInTheDocument();
    act(() => screen.getByTestId('dns-history-revert').click());
    act(() => screen.getByTestId('dns-history-confirm-confirm').click());
    expect(await screen.findByTestId('dns-history-refusal')).toHaveTextContent('www.demo.test. A ha vuelto a cambiar');
    expect(calls.some((call) => call.path === 'service/3/dns/history/7/revert/' && call.method === 'POST')).toBe(true);
  });
});

describe('DNS record table', () => {
  it('shows HTML typed into a TXT record as text, never as markup', () => {
    const html = '<img src=x onerror="window.pwned=1"><b>bold</b><script>window.pwned=2</script>';
    const record: DnsRecord = {
      id: 1,
      zona: 'evil',
      reference: 'demo.test',
      referencePunycode: 'demo.test',
      type: 'TXT',
      ttl: 0,
      priority: 0,
      value: html,
      dynamicValue: '',
      eliminable: true,
    };
    const { container } = renderWithProviders(
      <DnsRecordTable records={[record]} canWrite emptyText="" busy={false} onEdit={() => {}} onDelete={() => {}} />,
    );
    expect(screen.getByTestId('dns-value').textContent).toBe(html);
    expect(container.querySelector('[data-testid="dns-list"] img, [data-testid="dns-list"] b, script')).toBeNull();
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
  });

  it("says the zone's changes are not on the DNS server yet, and why, and tries again at the user's word", async () => {
    let publishing: unknown = { state: 'failing', since: 1_790_000_000, reason: 'down' };
    const calls = stubApi((call) => {
      const dnssec = dnssecAnswer(call.path);
      if (dnssec) return dnssec;
      if (call.path === 'service/3/dns/publish/') {
        publishing = null;
        return envelope({}, { info: ['Todos los cambios de la zona están publicados en el servidor DNS'] });
      }
      return envelope({ dnss: [], total: 0, publishing });
    });
    renderWithProviders(<DnsZoneView set={set} />);
    const alert = await screen.findByTestId('dns-publishing');
    expect(alert).toHaveAttribute('role', 'status');
    expect(alert).toHaveTextContent('Aún no están en el servidor DNS');
    expect(alert).toHaveTextContent('No se puede contactar con el servidor DNS');
    await act(async () => screen.getByRole('button', { name: 'Reintentar ahora' }).click());
    expect(calls.find((call) => call.path === 'service/3/dns/publish/')).toMatchObject({ method: 'POST' });
    // the list is read again: the zone is published and the alert goes
    await vi.waitFor(() => expect(screen.queryByTestId('dns-publishing')).toBeNull());
  });

  it('offers no "try again" to a user who may only read the zone', async () => {
    stubApi(
      (call) =>
        dnssecAnswer(call.path) ??
        envelope({ dnss: [], total: 0, publishing: { state: 'pending', since: 1_790_000_000, reason: null } }),
    );
    const reader = { ...set, permissions: { service_dnszone: 'read' } } as unknown as PermissionSetData;
    renderWithProviders(<DnsZoneView set={reader} />);
    expect(await screen.findByTestId('dns-publishing')).toHaveTextContent('Aplicándose');
    expect(screen.queryByTestId('dns-publishing-retry')).toBeNull();
  });
});
