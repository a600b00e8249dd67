import type { PermissionSetData } from '@panel247/contract/permissions';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { permissionSetQueryKey } from '../../../api/permission-queries';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';

const notifyErrorText = vi.fn();
vi.mock('../../../lib/notify', async (original) => ({
  ...(await original<typeof import('../../../lib/notify')>()),
  notifyErrorText: (key: string) => notifyErrorText(key),
}));
const { DnsCreateModal } = await import('./dns-create-modal');

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  notifyErrorText.mockClear();
});

function permissionSet(level: 'read' | 'write'): PermissionSetData {
  return {
    id: 5,
    reference: 'demo.test',
    referencePunycode: 'demo.test',
    hasDomain: true,
    hasService: true,
    hasMail: false,
    domain: null,
    service: { expireTS: 0, isRedirAndParking: false },
    permissions: { service_dnszone: level },
  } as unknown as PermissionSetData;
}

/** Two A records at the apex: the RRset a new apex A joins. */
const apexA = [1, 2].map((id) => ({
  id,
  zona: '',
  reference: 'demo.test',
  referencePunycode: 'demo.test',
  type: 'A',
  ttl: 0,
  priority: 0,
  value: `192.0.2.${id}`,
  dynamicValue: '',
  eliminable: true,
}));

function open(serverLevel: 'read' | 'write') {
  const calls = stubApi((call) =>
    call.path.endsWith('/dns/list/')
      ? envelope({ dnss: [...apexA, { ...apexA[0], id: 3, zona: 'www' }], total: 3 })
      : envelope(permissionSet(serverLevel)),
  );
  const onClose = vi.fn();
  const view = renderWithProviders(
    <DnsCreateModal opened onClose={onClose} serviceId={5} zoneName="demo.test" canWrite />,
  );
  return { calls, onClose, ...view };
}

describe('DNS create dialog', () => {
  it('asks the server for the service’s permissions when it opens, and stays open with the right', async () => {
    const { calls, onClose, client } = open('write');
    expect(screen.getByTestId('dns-create-form')).toBeInTheDocument();
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST permission/5/'));
    await waitFor(() =>
      expect(client.getQueryData<PermissionSetData>(permissionSetQueryKey(5))?.permissions.service_dnszone).toBe(
        'write',
      ),
    );
    expect(onClose).not.toHaveBeenCalled();
    expect(notifyErrorText).not.toHaveBeenCalled();
  });

  it('says under the TTL that the records of the RRset the new record joins all take its TTL', async () => {
    const { calls } = open('write');
    // The default form is an A record at the apex: two are there, so three will share the TTL.
    expect(await screen.findByTestId('dns-ttl-rrset')).toHaveTextContent(
      'Los 3 registros A de demo.test tendrán este TTL',
    );
    const list = calls.find((c) => c.path === 'service/5/dns/list/');
    expect(Object.fromEntries(list?.params ?? [])).toMatchObject({ type: 'A', filter: '' });
    // A name of its own: no other record, no note.
    fireEvent.change(screen.getByTestId('dns-field-zona'), { target: { value: 'nuevo' } });
    await waitFor(() => expect(screen.queryByTestId('dns-ttl-rrset')).toBeNull());
  });

  it("closes with 'main.no_permission' when the reloaded permissions lack the DNS-zone action", async () => {
    const { onClose } = open('read');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByTestId('dns-create-form')).toBeNull();
    expect(notifyErrorText).toHaveBeenCalledTimes(1);
    expect(notifyErrorText).toHaveBeenCalledWith('main.no_permission');
  });

  it("closes at once with 'main.no_permission' when the cached permissions already lack it", () => {
    stubApi(() => envelope(permissionSet('read')));
    const onClose = vi.fn();
    renderWithProviders(
      <DnsCreateModal opened onClose={onClose} serviceId={5} zoneName="demo.test" canWrite={false} />,
    );
    expect(onClose).toHaveBeenCalled();
    expect(notifyErrorText).toHaveBeenCalledWith('main.no_permission');
    expect(screen.queryByTestId('dns-create-form')).toBeNull();
  });
});
