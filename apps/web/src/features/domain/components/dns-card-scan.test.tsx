import type { Domain } from '@panel247/contract/domain';
import type { PermissionMap } from '@panel247/contract/permissions';
import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { DnsCard } from './dns-card';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => vi.unstubAllGlobals());

const domain = (mode: Domain['dns']['mode']): Domain => ({
  id: 1,
  name: 'fuera.test',
  dns: { mode, servers: ['ns1.otro.test'] },
  status: 'active',
  expireTS: 0,
  ts: 0,
  blocked: false,
  transferBlock: false,
  whoisPrivacy: false,
  authType: 'authcode',
  dnssecType: 'digest',
});
const read = { domain_dnssec: 'read', domain_dns: 'read', domain_gluerecords: 'disabled' } as PermissionMap;

describe('the DNS card’s last CDS scan', () => {
  it('shows a refused scan with its reason and time, for a domain on its own name servers', async () => {
    const calls = stubApi((call) =>
      call.path === 'domain/1/dnssec/scan/'
        ? envelope({
            scan: { outcome: 'refused', detail: 'Las firmas de la respuesta no validan', checkedAt: 1_790_000_000 },
          })
        : envelope({ dnssec: [] }),
    );
    renderWithProviders(<DnsCard id={1} domain={domain('setDNS')} permissions={read} />);
    const line = await screen.findByTestId('cds-scan');
    expect((await screen.findByText('CDS descartado')).closest('[data-outcome]')).toHaveAttribute(
      'data-outcome',
      'refused',
    );
    expect(line).toHaveTextContent('Las firmas de la respuesta no validan');
    expect(line).toHaveTextContent('2026');
    expect(calls.some((call) => call.path === 'domain/1/dnssec/scan/')).toBe(true);
  });

  it('says when it was never scanned, and is absent on the provider’s name servers', async () => {
    stubApi((call) => (call.path === 'domain/1/dnssec/scan/' ? envelope({ scan: null }) : envelope({ dnssec: [] })));
    const { unmount } = renderWithProviders(<DnsCard id={1} domain={domain('setDNS')} permissions={read} />);
    expect(await screen.findByText('Aún no se ha escaneado')).toBeInTheDocument();
    unmount();
    const calls = stubApi(() => envelope({ dnssec: [] }));
    renderWithProviders(<DnsCard id={1} domain={domain('defaultDNS')} permissions={read} />);
    await screen.findByTestId('dnssec-preview');
    expect(screen.queryByTestId('cds-scan')).toBeNull();
    expect(calls.some((call) => call.path === 'domain/1/dnssec/scan/')).toBe(false);
  });
});
