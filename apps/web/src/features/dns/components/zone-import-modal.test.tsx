import type { DnsImportData } from '@panel247/contract/dns-import';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, type StubCall, stubApi } from '../../../test/api-stub';
import { stubDocumentFonts } from '../../../test/document-fonts';
import { ZoneImportModal } from './zone-import-modal';

beforeAll(async () => {
  stubDocumentFonts();
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => vi.unstubAllGlobals());

const permissionSet = {
  id: 5,
  reference: 'demo.test',
  referencePunycode: 'demo.test',
  hasDomain: true,
  hasService: true,
  hasMail: false,
  domain: null,
  service: { expireTS: 0, isRedirAndParking: false },
  permissions: { service_dnszone: 'write' },
} as unknown as PermissionSetData;

const plan: DnsImportData = {
  mode: 'merge',
  added: [{ line: 2, zona: 'www', type: 'A', ttl: 0, priority: 0, value: '192.0.2.1' }],
  changed: [],
  removed: [],
  unchanged: 0,
  refused: [{ line: 3, text: 'x IN PTR y.', reason: 'El panel no admite registros PTR' }],
  kept: [],
  conflicts: [],
  applied: false,
};

function open(answer: (call: StubCall) => Response, axfr: boolean) {
  const calls = stubApi((call) => {
    if (call.path === 'permission/5/') return envelope(permissionSet);
    if (call.path === 'service/5/dns/import/options/')
      return envelope({ axfr, maxText: 2_000_000, maxRecords: 20_000 });
    return answer(call);
  });
  renderWithProviders(<ZoneImportModal opened onClose={vi.fn()} serviceId={5} zoneName="demo.test" canWrite />);
  return calls;
}

describe('zone import dialog', () => {
  it('previews the pasted text and shows each refused line with its reason', async () => {
    const calls = open(() => envelope(plan), false);
    fireEvent.change(screen.getByTestId('dns-import-text'), { target: { value: 'www A 192.0.2.1\nx IN PTR y.' } });
    fireEvent.click(screen.getByTestId('dns-import-preview'));
    await screen.findByTestId('dns-import-result');
    expect(screen.getByTestId('dns-import-count-added').textContent).toBe('Añadidos: 1');
    expect(screen.getByTestId('dns-import-refused').textContent).toContain('El panel no admite registros PTR');
    const preview = calls.find((c) => c.path === 'service/5/dns/import/preview/');
    expect(preview?.params.get('mode')).toBe('merge');
    expect(preview?.params.get('text')).toBe('www A 192.0.2.1\nx IN PTR y.');
    expect(screen.queryByTestId('dns-import-server')).toBeNull();
  });

  it('with AXFR offered, reads the zone from the name server into the text; a refusal shows under the field', async () => {
    let refuse = false;
    const calls = open(
      () =>
        refuse
          ? envelope(null, { status: 400, inputs: ['server'], errors: ['Ese servidor DNS está en una red privada'] })
          : envelope({ text: 'demo.test. 3600 IN A 192.0.2.9\n' }),
      true,
    );
    const server = await screen.findByTestId('dns-import-server');
    fireEvent.change(server, { target: { value: 'ns1.old.example:5300' } });
    fireEvent.click(screen.getByTestId('dns-import-axfr'));
    await waitFor(() =>
      expect((screen.getByTestId('dns-import-text') as HTMLTextAreaElement).value).toBe(
        'demo.test. 3600 IN A 192.0.2.9\n',
      ),
    );
    expect(calls.find((c) => c.path === 'service/5/dns/import/axfr/')?.params.get('server')).toBe(
      'ns1.old.example:5300',
    );
    refuse = true;
    fireEvent.click(screen.getByTestId('dns-import-axfr'));
    await screen.findByText('Ese servidor DNS está en una red privada');
  });

  it('shows a second SPF record as a conflict; choosing replace previews again and applies with that choice', async () => {
    const conflict = {
      line: 1,
      zona: '',
      type: 'TXT',
      ttl: 0,
      priority: 0,
      value: 'v=spf1 include:_spf.other.example -all',
      existing: { id: 9, ttl: 0, value: 'v=spf1 mx a ~all' },
    };
    const calls = open((call) => {
      const choice = call.params.get('conflicts') === 'replace' ? 'replace' : 'skip';
      return envelope({
        ...plan,
        added: choice === 'replace' ? [{ ...conflict }] : [],
        removed:
          choice === 'replace'
            ? [{ id: 9, zona: '', type: 'TXT', ttl: 0, priority: 0, value: 'v=spf1 mx a ~all' }]
            : [],
        refused: [],
        conflicts: [{ ...conflict, resolution: choice }],
      });
    }, false);
    fireEvent.change(screen.getByTestId('dns-import-text'), { target: { value: '@ TXT "v=spf1 -all"' } });
    fireEvent.click(screen.getByTestId('dns-import-preview'));
    const box = await screen.findByTestId('dns-import-conflicts');
    expect(box.textContent).toContain('Ahora en la zona (SPF): v=spf1 mx a ~all');
    expect(calls.find((c) => c.path === 'service/5/dns/import/preview/')?.params.get('conflicts')).toBe('skip');
    fireEvent.click(screen.getByTestId('dns-import-conflict-replace'));
    await waitFor(() =>
      expect(
        calls.filter((c) => c.path === 'service/5/dns/import/preview/').map((c) => c.params.get('conflicts')),
      ).toEqual(['skip', 'replace']),
    );
    await waitFor(() => expect(screen.getByTestId('dns-import-count-removed').textContent).toBe('Eliminados: 1'));
    // The record replaced is the customer's choice: no second confirmation.
    fireEvent.click(screen.getByTestId('dns-import-apply'));
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'service/5/dns/import/')?.params.get('conflicts')).toBe('replace'),
    );
  });
});
